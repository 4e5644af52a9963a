import BmobIO

/// Session tokens an app resolved recently, by the token's SHA-256: the user and its role names, so that a
/// request with a token costs no store read before its write queues.
///
/// Rules:
/// 1. An entry lives at most ``lifetimeMilliseconds`` and never past its session's expiry.
/// 2. Whatever ends sessions or changes who a user is forgets what it changes, in the same process: logout and
///    session revocation the token, a password change or reset and a user's deletion every token of the user,
///    a role write every entry (memberships may have changed anywhere).
/// 3. Another server node sharing the store (PostgreSQL) is told by the store (`observeSessionChanges`) and forgets
///    everything; an announcement lost while its listener reconnected is bounded by rule 1, and a reconnect forgets
///    everything too.
/// 4. A resolution that read the store before something was forgotten is not remembered (``generation``), so a
///    read racing a logout cannot put the ended session back.
/// 5. At most ``capacity`` entries; a full cache is emptied rather than scanned. Expired entries are swept at most
///    once per ``lifetimeMilliseconds``, when one is added to a cache of ``sweepThreshold`` or more, so that a
///    steady stream of new sessions keeps about a lifetime's worth of entries instead of filling the cache.
package final class SessionCache: Sendable {
    /// One resolved session.
    package struct Entry: Sendable, Equatable {
        /// The session's user.
        package var userId: String
        /// The user's role names when the entry was made.
        package var roles: Set<String>
        /// When the session itself expires (milliseconds since 1970).
        package var sessionExpiresAt: Int64
        /// When the entry is no longer trusted (milliseconds since 1970).
        package var validUntil: Int64

        /// Makes an entry.
        package init(userId: String, roles: Set<String>, sessionExpiresAt: Int64, validUntil: Int64) {
            self.userId = userId
            self.roles = roles
            self.sessionExpiresAt = sessionExpiresAt
            self.validUntil = validUntil
        }
    }

    /// How long an entry is trusted.
    package static let lifetimeMilliseconds: Int64 = 5_000
    /// Entries kept at most.
    package static let capacity = 10_000
    /// Below this many entries expired ones are left for lookups to drop.
    package static let sweepThreshold = 256

    private let lock = Lock()
    // Invariant: `entries` and `forgets` are read and written only under `lock`.
    private nonisolated(unsafe) var entries: [String: Entry] = [:]
    private nonisolated(unsafe) var forgets: UInt64 = 0
    private nonisolated(unsafe) var nextSweep: Int64 = 0

    /// An empty cache.
    package init() {}

    /// The entry of `tokenHash`, if it is still valid at `now`.
    package func entry(tokenHash: String, now: Int64) -> Entry? {
        lock.withLock {
            guard let entry = entries[tokenHash] else { return nil }
            guard entry.validUntil > now, entry.sessionExpiresAt > now else {
                entries[tokenHash] = nil
                return nil
            }
            return entry
        }
    }

    /// How many times something was forgotten; read it before resolving a session from the store.
    package var generation: UInt64 {
        lock.withLock { forgets }
    }

    /// Remembers a session resolved from a read that started at `generation`, unless something was forgotten
    /// since (rule 4).
    package func remember(tokenHash: String, _ entry: Entry, generation: UInt64) {
        let now = entry.validUntil - Self.lifetimeMilliseconds
        lock.withLock {
            guard forgets == generation else { return }
            if entries.count >= Self.sweepThreshold, now >= nextSweep {
                entries = entries.filter { $0.value.validUntil > now && $0.value.sessionExpiresAt > now }
                nextSweep = now + Self.lifetimeMilliseconds
            }
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[tokenHash] = entry
        }
    }

    /// How many entries the cache holds, expired ones not yet swept included.
    package var count: Int {
        lock.withLock { entries.count }
    }

    /// Forgets one token.
    package func forget(tokenHash: String) {
        lock.withLock {
            forgets &+= 1
            entries[tokenHash] = nil
        }
    }

    /// Forgets every token of `userId`.
    package func forget(userId: String) {
        lock.withLock {
            forgets &+= 1
            entries = entries.filter { $0.value.userId != userId }
        }
    }

    /// Forgets everything.
    package func forgetAll() {
        lock.withLock {
            forgets &+= 1
            entries.removeAll()
        }
    }
}
