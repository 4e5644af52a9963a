import BmobWire
import Foundation

/// The key set of a provider that publishes it at a URL: fetched on first use, kept for
/// ``lifetimeMilliseconds``, and refetched early when a token names a key the set lacks (the provider may have
/// rotated its keys), at most once per ``refetchIntervalMilliseconds``.
///
/// Callers that need a fetch while one is in flight wait for it instead of starting another. When a refetch
/// fails, the keys already held stay in use, however old, until a fetch succeeds.
actor OIDCKeyStore {
    /// How long a fetched set is used before it is fetched again: one hour.
    static let lifetimeMilliseconds: Int64 = 3_600_000
    /// The least time between two fetch attempts, successful or not: one minute.
    static let refetchIntervalMilliseconds: Int64 = 60_000

    /// Where the set is published.
    let url: URL
    private let fetcher: OIDCKeySetFetcher
    private let clock: ServerClock

    /// The last set fetched, if any.
    private var keys: JSONWebKeySet?
    /// When ``keys`` was fetched, in the clock's milliseconds.
    private var fetchedAt: Int64 = 0
    /// When the last fetch started, if one ever did.
    private var lastAttempt: Int64?
    /// Callers waiting for the fetch in flight; `nil` when none is.
    private var waiters: [CheckedContinuation<JSONWebKeySet, any Error>]?

    /// A store that fetches from `url` with `fetcher`, timed by `clock`.
    init(url: URL, fetcher: OIDCKeySetFetcher, clock: ServerClock) {
        self.url = url
        self.fetcher = fetcher
        self.clock = clock
    }

    /// The key a token names (see ``JSONWebKeySet/key(id:)``), fetching or refetching the set when needed.
    ///
    /// - Parameter keyID: The token's `kid`, if any.
    /// - Returns: The key, or `nil` when the set (fetched again if allowed) has no such key.
    /// - Throws: The fetch's error when no set could be fetched at all.
    func key(id keyID: String?) async throws -> JSONWebKey? {
        let now = clock.nowMilliseconds()
        let fresh = keys != nil && now - fetchedAt < Self.lifetimeMilliseconds
        if fresh {
            if let key = keys?.key(id: keyID) { return key }
            // Without a kid there is nothing a new set could clear up.
            guard keyID != nil else { return nil }
        }
        let mayFetch = waiters != nil || lastAttempt.map { now - $0 >= Self.refetchIntervalMilliseconds } ?? true
        if mayFetch {
            do {
                return try await refresh(now: now).key(id: keyID)
            } catch {
                // A failed refetch falls back on the keys held; with none, the failure is the answer.
                guard let keys else { throw error }
                return keys.key(id: keyID)
            }
        }
        guard let keys else {
            throw JSONWebTokenError("the key set could not be fetched less than a minute ago")
        }
        return keys.key(id: keyID)
    }

    /// Fetches the set, or waits for the fetch already in flight, and keeps it on success.
    private func refresh(now: Int64) async throws -> JSONWebKeySet {
        if waiters != nil {
            return try await withCheckedThrowingContinuation { waiters?.append($0) }
        }
        waiters = []
        lastAttempt = now
        let result: Result<JSONWebKeySet, any Error>
        do {
            result = .success(try JSONWebKeySet(bytes: try await fetcher.fetch(url)))
        } catch {
            result = .failure(error)
        }
        if case .success(let set) = result {
            keys = set
            fetchedAt = now
        }
        let pending = waiters ?? []
        waiters = nil
        for waiter in pending {
            waiter.resume(with: result)
        }
        return try result.get()
    }
}
