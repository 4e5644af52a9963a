import BmobCrypto
import BmobRealtime
import BmobWire
public import Foundation

/// The onebase client: one WebSocket carries live queries, mutations, actions and the auth token.
///
/// ```swift
/// let client = OnebaseClient(url: "https://api.example.com", offlineDirectory: documents)
/// client.onConnectionChange = { state in } // .connecting / .open / .closed
/// let subscription = client.subscribe("notes:list", [:]) { value in
///     let notes = value?.array ?? []
/// }
/// let id = try await client.mutation("notes:add", ["text": "Hello"])
/// ```
///
/// The client connects as soon as it is made (to `<url>/api/1/sync`, `http` becoming `ws` and `https` `wss`), and
/// reconnects after a drop with a backoff from 1 s to 16 s, or after 60 s without hearing from the server. On every
/// socket it sends its token and all live queries again; mutations queued meanwhile then go out in order.
///
/// **Threading.** The client is `Sendable`; call it from any thread or task. `onUpdate` closures, the `on…` handlers
/// and the resumption of `mutation`, `query` and `action` calls all happen on the main queue, in the order the
/// client produced them: when an awaited mutation returns, the subscriptions already show its writes.
///
/// **Lifetime.** Releasing the client closes its socket; calls and subscriptions keep it alive only while they
/// run. Cancelling a task that awaits a call does not cancel the call: it returns when the call finishes.
///
/// ## Topics
/// ### Creating
/// - ``init(url:offlineDirectory:)``
/// - ``init(url:offlineDirectory:tokenStore:)``
/// - ``init(url:offlineStore:tokenStore:)``
/// ### Live queries and calls
/// - ``subscribe(_:_:_:)``
/// - ``OnebaseSubscription``
/// - ``mutation(_:_:optimisticUpdate:)``
/// - ``OnebaseLocalStore``
/// - ``query(_:_:)``
/// - ``action(_:_:)``
/// - ``OnebaseError``
/// ### Auth
/// - ``signInPassword(email:password:flow:)``
/// - ``signOut()``
/// - ``setToken(_:)``
/// - ``onAuthChange``
/// - ``OnebaseTokenStore``
/// ### Connection and offline
/// - ``onConnectionChange``
/// - ``OnebaseConnectionState``
/// - ``OfflineStore``
/// - ``queuedMutationCount``
/// - ``clearQueuedMutations()``
/// - ``onQueuedMutationFailure``
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held; the lock
/// is never held across an `await` or while app code runs (app code runs on the main queue, optimistic updates
/// excepted: they run inside the lock and must not call the client).
public final class OnebaseClient: @unchecked Sendable {
    typealias Action = OnebaseSyncMachine.Action

    let environment: OnebaseClientEnvironment
    let endpoint: Result<OnebaseEndpoint, OnebaseError>
    let tokenStore: any OnebaseTokenStore
    let offlineStore: OfflineStore?
    let lock = NSLock()
    var machine: OnebaseSyncMachine
    /// The transport of each live attempt.
    var transports: [Int: any WebSocketTransport] = [:]
    let timers = DriverTimers<OnebaseSyncMachine.Timer>()
    /// The callers of mutations and actions, by request id; each resumed once, after being removed under the lock.
    var callers: [Int64: CheckedContinuation<OnebaseValue?, any Error>] = [:]
    /// The callers of one-shot queries, by waiter id.
    var queryCallers: [Int: CheckedContinuation<OnebaseValue?, any Error>] = [:]
    var nextQueryCaller = 0
    /// The `onUpdate` closure of each live subscription.
    var updateHandlers: [Int: @MainActor @Sendable (OnebaseValue?) -> Void] = [:]
    var nextSubscription = 0
    private var connectionHandler: (@MainActor @Sendable (OnebaseConnectionState) -> Void)?
    private var authHandler: (@MainActor @Sendable (Bool) -> Void)?
    private var queueFailureHandler: (@MainActor @Sendable (String, [String: OnebaseValue], OnebaseError) -> Void)?

    /// Makes a client and starts connecting.
    ///
    /// - Parameters:
    ///   - url: the app's base URL, such as `https://api.example.com` or `http://host:port/apps/<applicationId>`.
    ///   - offlineDirectory: where to cache query results and queue mutations (an ``OfflineStore`` keeping the newest
    ///     100 results, in an `onebase` folder inside it); `nil` for no offline support.
    public convenience init(url: String, offlineDirectory: URL? = nil) {
        self.init(url: url, offlineDirectory: offlineDirectory, tokenStore: nil)
    }

    /// Makes a client that keeps its token in `tokenStore`, and starts connecting.
    ///
    /// - Parameters:
    ///   - url: the app's base URL.
    ///   - offlineDirectory: where to cache query results and queue mutations; `nil` for no offline support.
    ///   - tokenStore: where to keep the token; `nil` for the platform's default (the Keychain on Apple platforms, a
    ///     `0600` file in `offlineDirectory` or Application Support elsewhere).
    public convenience init(url: String, offlineDirectory: URL?, tokenStore: (any OnebaseTokenStore)?) {
        let environment = OnebaseClientEnvironment.current
        let folder = environment.offlineDirectory(offlineDirectory).map {
            $0.appendingPathComponent("onebase", isDirectory: true)
                .appendingPathComponent(Self.folderName(environment.url(url)), isDirectory: true)
        }
        self.init(url: url, offlineStore: folder.map { OfflineStore(directory: $0) }, tokenStore: tokenStore)
    }

    /// Makes a client with your own ``OfflineStore`` (to choose how many results it keeps), and starts connecting.
    ///
    /// - Parameters:
    ///   - url: the app's base URL.
    ///   - offlineStore: the offline store, or `nil` for no offline support. Give each client its own.
    ///   - tokenStore: where to keep the token; `nil` for the platform's default.
    public init(url: String, offlineStore: OfflineStore?, tokenStore: (any OnebaseTokenStore)? = nil) {
        let environment = OnebaseClientEnvironment.current
        let url = environment.url(url)
        self.environment = environment
        endpoint = Result { () throws(OnebaseError) in try OnebaseEndpoint(url: url) }
        self.offlineStore = offlineStore
        self.tokenStore =
            tokenStore ?? Self.defaultTokenStore(url: url, offlineStore: offlineStore, environment: environment)
        machine = OnebaseSyncMachine(
            sessionId: UUID().uuidString.lowercased(), token: self.tokenStore.loadToken(), offline: offlineStore,
            backoff: environment.backoff, jitter: environment.random, clock: environment.now)
        if case .success = endpoint { handle { $0.start() } }
    }

    deinit {
        // `timers` cancels its tasks as it goes.
        for transport in transports.values { transport.close(code: .normalClosure, reason: "") }
    }

    // MARK: - Handlers

    /// Called on the main queue with each change of the connection: `.connecting` while dialling or waiting to
    /// redial, `.open` once the socket is open, `.closed` when it closes.
    ///
    /// Set it in the same main-queue turn as the initializer to see the first `.connecting`.
    public var onConnectionChange: (@MainActor @Sendable (OnebaseConnectionState) -> Void)? {
        get { lock.withLock { connectionHandler } }
        set { lock.withLock { connectionHandler = newValue } }
    }

    /// Called on the main queue with `true` when the server accepts the token, and `false` when it refuses it (the
    /// stored token is then deleted and the client goes on signed out) or after ``signOut()``.
    public var onAuthChange: (@MainActor @Sendable (Bool) -> Void)? {
        get { lock.withLock { authHandler } }
        set { lock.withLock { authHandler = newValue } }
    }

    /// Called on the main queue when a mutation queued by an earlier run of the app fails: the server refused it,
    /// it was lost in flight (sent, but the connection or the app went away before the answer), or it was queued by
    /// another user than the one now signed in. Mutations of this run throw to their caller instead.
    ///
    /// The arguments are the mutation's name, its arguments and the error. Set it in the same main-queue turn as the
    /// initializer to hear about mutations a crashed run left in flight.
    public var onQueuedMutationFailure: (@MainActor @Sendable (String, [String: OnebaseValue], OnebaseError) -> Void)? {
        get { lock.withLock { queueFailureHandler } }
        set { lock.withLock { queueFailureHandler = newValue } }
    }

    // MARK: - Live queries and calls

    /// Subscribes to a query: `onUpdate` runs on the main queue with its first result and every change after it.
    ///
    /// Subscriptions to the same query and arguments share one server query. A result arrives from the server, from
    /// the offline cache while disconnected (once the server has confirmed the same user), or from an optimistic
    /// update; `nil` means loading (an update set it so, the query failed, or the user changed). Only changed values
    /// are delivered.
    ///
    /// - Parameters:
    ///   - name: the query function, `module:export` (such as `notes:list` or `Note:list`).
    ///   - args: its arguments.
    ///   - onUpdate: called on the main queue with each new result.
    /// - Returns: the subscription; call ``OnebaseSubscription/cancel()`` to stop it. An invalid `name` gives a
    ///   subscription that never updates.
    @discardableResult
    public func subscribe(
        _ name: String, _ args: [String: OnebaseValue] = [:],
        _ onUpdate: @escaping @MainActor @Sendable (OnebaseValue?) -> Void
    ) -> OnebaseSubscription {
        guard case .success = endpoint, let token = try? OnebaseQueryToken(name: name, arguments: args) else {
            return OnebaseSubscription(client: nil, id: -1)
        }
        var id = 0
        handle { machine in
            id = nextSubscription
            nextSubscription += 1
            updateHandlers[id] = onUpdate
            return machine.subscribe(id, to: token)
        }
        return OnebaseSubscription(client: self, id: id)
    }

    /// Runs a mutation.
    ///
    /// The optimistic update, if any, applies at once and stays until the mutation finishes. While disconnected the
    /// mutation waits (queued on disk with an offline store, so it survives a restart) and goes out, in order, once
    /// the server confirmed the user. On success the call returns only after the server's results that include its
    /// writes were delivered to the subscriptions, so there is no flicker. Each mutation is sent at most once per run:
    /// one in flight when the connection drops throws "connection lost" (it may or may not have run).
    ///
    /// - Parameters:
    ///   - name: the mutation function, `module:export`.
    ///   - args: its arguments.
    ///   - optimisticUpdate: changes the subscribed queries' results until the mutation finishes; a pure function of
    ///     the store, which may run again over newer results. It runs on the client's thread and must not call the
    ///     client.
    /// - Returns: the mutation's result; `nil` when it returned null.
    /// - Throws: ``OnebaseError``: the function's error (message and `data`), a lost connection, an invalid name or
    ///   URL, or a cleared queue.
    @discardableResult
    public func mutation(
        _ name: String, _ args: [String: OnebaseValue] = [:],
        optimisticUpdate: (@Sendable (OnebaseLocalStore) -> Void)? = nil
    ) async throws -> OnebaseValue? {
        let token = try checkedToken(name, args)
        let now = environment.now()
        return try await withCheckedThrowingContinuation { continuation in
            handle { machine in
                let (id, actions) = machine.mutation(token, name: name, update: optimisticUpdate, now: now)
                callers[id] = continuation
                return actions
            }
        }
    }

    /// Runs a query once: its live result when it is subscribed and loaded, else the server's first result (waiting
    /// for the connection when there is none).
    ///
    /// - Parameters:
    ///   - name: the query function, `module:export`.
    ///   - args: its arguments.
    /// - Returns: the result; `nil` when it is null.
    /// - Throws: ``OnebaseError``: the function's error, an invalid name or URL.
    @discardableResult
    public func query(_ name: String, _ args: [String: OnebaseValue] = [:]) async throws -> OnebaseValue? {
        let token = try checkedToken(name, args)
        return try await withCheckedThrowingContinuation { continuation in
            handle { machine in
                let waiter = nextQueryCaller
                nextQueryCaller += 1
                queryCallers[waiter] = continuation
                return machine.query(waiter, token)
            }
        }
    }

    /// Runs an action (a function that may reach other services; not transactional).
    ///
    /// Actions are never queued: one fails at once while disconnected, and fails when the connection drops while it
    /// is in flight.
    ///
    /// - Parameters:
    ///   - name: the action function, `module:export`.
    ///   - args: its arguments.
    /// - Returns: the action's result; `nil` when it returned null.
    /// - Throws: ``OnebaseError``: the function's error, not connected, connection lost, an invalid name or URL.
    @discardableResult
    public func action(_ name: String, _ args: [String: OnebaseValue] = [:]) async throws -> OnebaseValue? {
        let token = try checkedToken(name, args)
        return try await withCheckedThrowingContinuation { continuation in
            handle { machine in
                let (id, actions) = machine.action(token, name: name)
                callers[id] = continuation
                return actions
            }
        }
    }

    // MARK: - Offline

    /// Mutations not finished yet: queued while disconnected (this run's and, with an offline store, earlier runs'),
    /// or sent and waiting for their answer.
    public var queuedMutationCount: Int { lock.withLock { machine.queuedMutationCount } }

    /// Deletes the mutations that have not been sent yet; their callers throw. Mutations already sent finish as
    /// usual.
    public func clearQueuedMutations() {
        handle { $0.clearQueuedMutations() }
    }

    // MARK: - Internal

    /// Cancels subscription `id`; idempotent.
    func unsubscribe(_ id: Int) {
        handle { machine in
            updateHandlers[id] = nil
            return machine.unsubscribe(id)
        }
    }

    private func checkedToken(
        _ name: String, _ args: [String: OnebaseValue]
    ) throws(OnebaseError) -> OnebaseQueryToken {
        if case .failure(let error) = endpoint { throw error }
        return try OnebaseQueryToken(name: name, arguments: args)
    }

    /// A folder name for the client of `url`: the SHA-256 of the URL, shortened.
    static func folderName(_ url: String) -> String {
        let base = (try? OnebaseEndpoint(url: url))?.base.absoluteString ?? url
        return String(SHA256.hex(Array(base.utf8)).prefix(16))
    }

    private static func defaultTokenStore(
        url: String, offlineStore: OfflineStore?, environment: OnebaseClientEnvironment
    ) -> any OnebaseTokenStore {
        let folder =
            offlineStore?.directory
            ?? FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Onebase", isDirectory: true)
            .appendingPathComponent(folderName(url), isDirectory: true)
        if let make = environment.makeTokenStore { return make(folder) }
        #if canImport(Security)
            return OnebaseKeychainTokenStore(service: "onebase", account: folderName(url))
        #else
            return OnebaseFileTokenStore(fileURL: folder.appendingPathComponent("token"))
        #endif
    }

    // MARK: - Delivery

    /// Runs `body` on the main queue, after everything queued before it.
    func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
    }

    /// Delivers `value` to subscription `id`, unless it was cancelled meanwhile.
    func deliver(_ value: OnebaseValue?, to id: Int) {
        onMain { [self] in
            guard let handler = lock.withLock({ updateHandlers[id] }) else { return }
            handler(value)
        }
    }

    func announce(_ state: OnebaseConnectionState) {
        onMain { [self] in lock.withLock { connectionHandler }?(state) }
    }

    func announceAuth(_ signedIn: Bool) {
        onMain { [self] in lock.withLock { authHandler }?(signedIn) }
    }

    func announceQueueFailure(_ name: String, _ args: [String: OnebaseValue], _ error: OnebaseError) {
        onMain { [self] in lock.withLock { queueFailureHandler }?(name, args, error) }
    }
}
