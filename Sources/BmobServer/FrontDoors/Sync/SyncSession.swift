import BmobCrypto
import BmobHTTP
import BmobIO
import BmobWire

/// One sync socket (`/apps/<applicationId>/api/<version>/sync`): its identity, its live queries, its mutations
/// and actions. Loop-confined (its socket's loop).
///
/// Rules:
/// 1. `Connect` comes first; versions must chain (`ModifyQuerySet.baseVersion` is the socket's query-set
///    version, `Authenticate.baseVersion` its identity version); any breach is a `FatalError` and a close with
///    1008 (policy), since the client must not retry the same way.
/// 2. Transitions form a chain: each starts at the version the one before ended at, and lists only queries
///    whose result changed for this socket (a query's first result always).
/// 3. Mutations run one at a time in arrival order, each once per (`sessionId`, `requestId`)
///    (``SyncRequestLedger``). While one runs, results from the live-query engine are held, and the
///    `MutationResponse` goes out before them: the client never sees a result holding the mutation's writes
///    before the mutation's answer, so its optimistic update is replaced without flicker.
/// 4. After a successful mutation the socket makes sure a `Transition` reaches the mutation's `ts`: at once when
///    it has no live queries (nothing to wait for) or is already there, otherwise with the engine's next batch.
/// 5. The identity is checked when it is set and again before each mutation; a token that does not check out
///    gets `AuthError`, and the socket goes on as nobody.
/// 6. Bounds: ``maximumQueries`` live queries (one per function and arguments), ``maximumQueuedMutations``
///    mutations waiting, ``maximumActions`` actions running; beyond them a request fails (the socket stays). A
///    transition over ``maximumTransitionBytes`` ends the socket.
final class SyncSession: WebSocketHandler {
    private let gateway: SyncGateway
    private let runtime: AppRuntime
    private let engine: SyncLiveQueries
    private var socket: WebSocketConnection?
    private var bound: LoopBound<SyncSession>?
    private var sessionId: String?
    private var identity = SyncIdentity.anonymous
    private var userId: String?
    /// Where the last transition ended.
    private var version = SyncStateVersion.initial
    private var querySetVersion: Int64 = 0
    private var identityVersion: Int64 = 0
    /// Live queries by id.
    private var queries: [Int64: (key: SyncQueryKey, arguments: [String: JSONValue])] = [:]
    /// The result version each live query last sent (none yet: its first result is due).
    private var sentVersions: [Int64: Int64] = [:]
    /// Messages that arrived while an `Authenticate` was being checked, handled in order after it.
    private var inbox: [SyncClientMessage] = []
    private var authenticating = false
    private var mutations: [(requestId: Int64, path: SyncFunctionPath, arguments: [String: JSONValue])] = []
    private var mutationRunning = false
    /// Engine results held while a mutation runs (rule 3).
    private var held: [SyncLiveUpdate] = []
    /// The largest `ts` of a successful mutation's answer.
    private var awaitedTs: Int64 = 0
    /// The largest journal position the engine has reported, sent or not: every live query's result is current
    /// up to it.
    private var knownTs: Int64 = 0
    private var actionsRunning = 0
    private var pingTimer: TimerID?
    private var closed = false

    static let maximumQueries = 1000
    static let maximumQueuedMutations = 1000
    static let maximumActions = 16
    /// Seconds of silence after which the server sends `Ping`.
    static let pingIntervalNanoseconds: UInt64 = 15_000_000_000
    /// The largest message sent whole; larger transitions go out as chunks of this size.
    static let chunkBytes = 256 * 1024
    /// The largest transition (what clients accept): one over it ends the socket (a client could otherwise make the
    /// server encode its queries' results without bound).
    static let maximumTransitionBytes = SyncLimits().maximumTransitionBytes

    init(gateway: SyncGateway, runtime: AppRuntime, engine: SyncLiveQueries) {
        self.gateway = gateway
        self.runtime = runtime
        self.engine = engine
    }

    private var applicationId: String { runtime.app.applicationId }

    // MARK: - WebSocketHandler

    func webSocketOpened(_ socket: WebSocketConnection) {
        self.socket = socket
        bound = LoopBound(self, loop: socket.loop)
        schedulePing()
    }

    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage) {
        guard case .text(let text) = message else {
            fatal("messages are JSON text")
            return
        }
        let decoded: SyncClientMessage
        do {
            decoded = try SyncClientMessage(decoding: Array(text.utf8))
        } catch {
            fatal(error.message)
            return
        }
        if authenticating {
            guard inbox.count < Self.maximumQueuedMutations else {
                fatal("too many messages while the token is checked")
                return
            }
            inbox.append(decoded)
        } else {
            handle(decoded)
        }
    }

    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?) {
        closed = true
        if let pingTimer { socket.loop.cancelTimer(pingTimer) }
        pingTimer = nil
        let id = ObjectIdentifier(self)
        for query in queries.values { engine.unsubscribe(id, from: query.key) }
        queries = [:]
        inbox = []
        mutations = []
        held = []
        self.socket = nil
        bound = nil
    }

    func webSocketShuttingDown(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        (.goingAway, "server shutting down; reconnect")
    }

    // MARK: - Messages

    private func handle(_ message: SyncClientMessage) {
        if sessionId == nil {
            guard case .connect(let connect) = message else {
                fatal("the first message must be Connect")
                return
            }
            sessionId = connect.sessionId
            return
        }
        switch message {
        case .connect:
            fatal("Connect is sent once per socket")
        case .authenticate(let tokenType, let value, let baseVersion):
            authenticate(tokenType, value, baseVersion: baseVersion)
        case .modifyQuerySet(let baseVersion, let newVersion, let modifications):
            modifyQuerySet(baseVersion: baseVersion, newVersion: newVersion, modifications)
        case .mutation(let requestId, let path, let arguments):
            guard mutations.count < Self.maximumQueuedMutations else {
                send(.mutationResponse(.init(requestId: requestId, outcome: .failure(message: "too many mutations waiting on this socket", errorData: ["code": 107]))))
                return
            }
            mutations.append((requestId, path, arguments))
            runNextMutation()
        case .action(let requestId, let path, let arguments):
            runAction(requestId, path, arguments)
        case .event:
            break
        }
    }

    // MARK: - Identity

    private func authenticate(_ tokenType: SyncTokenType, _ value: String?, baseVersion: Int64) {
        guard baseVersion == identityVersion else {
            fatal("Authenticate's baseVersion \(baseVersion) is not the identity version \(identityVersion)")
            return
        }
        identityVersion += 1
        switch tokenType {
        case .none:
            adopt(.anonymous, userId: nil)
        case .admin:
            let master = runtime.app.masterKey
            guard let value, ConstantTime.equals(Array(value.utf8), Array(master.utf8)) else {
                refuseIdentity("the admin key is not this app's master key")
                return
            }
            adopt(.master, userId: nil)
        case .user:
            guard let value, let bound else { return }
            authenticating = true
            let identity = SyncIdentity.user(token: value)
            let gateway = gateway, runtime = runtime
            Task {
                let userId = await gateway.userId(of: identity, in: runtime)
                bound.loop.execute {
                    let session = bound.value
                    session.authenticating = false
                    guard !session.closed else { return }
                    if let userId {
                        session.adopt(identity, userId: userId)
                    } else {
                        session.refuseIdentity("the token is unknown or expired")
                    }
                    session.drainInbox()
                }
            }
        }
    }

    private func drainInbox() {
        while !authenticating, !inbox.isEmpty, !closed {
            handle(inbox.removeFirst())
        }
    }

    /// Takes `identity`: confirms it (`AuthOk`) and moves every live query over to it.
    private func adopt(_ identity: SyncIdentity, userId: String?) {
        let changed = identity != self.identity
        self.identity = identity
        self.userId = userId
        send(.authOk(baseVersion: identityVersion - 1, userId: userId))
        guard changed else {
            sendTransition(modifications: [], ts: version.ts)
            return
        }
        resubscribeAll()
    }

    private func refuseIdentity(_ reason: String) {
        send(.authError(error: reason, baseVersion: identityVersion - 1, authUpdateAttempted: true))
        let changed = identity != .anonymous
        identity = .anonymous
        userId = nil
        if changed { resubscribeAll() }
    }

    /// Every live query again under the current identity; their results follow as first results.
    private func resubscribeAll() {
        guard let bound else { return }
        let id = ObjectIdentifier(self)
        let old = queries
        sentVersions = [:]
        for (queryId, query) in old {
            let key = SyncQueryKey(path: query.key.path, arguments: query.arguments, identity: identity)
            queries[queryId] = (key, query.arguments)
            engine.subscribe(bound, to: key, arguments: query.arguments)
            engine.unsubscribe(id, from: query.key)
        }
        if old.isEmpty { sendTransition(modifications: [], ts: version.ts) }
    }

    // MARK: - Live queries

    private func modifyQuerySet(baseVersion: Int64, newVersion: Int64, _ modifications: [SyncQueryModification]) {
        guard baseVersion == querySetVersion, newVersion > baseVersion else {
            fatal("ModifyQuerySet's versions \(baseVersion)→\(newVersion) do not follow the query set's \(querySetVersion)")
            return
        }
        guard let bound else { return }
        querySetVersion = newVersion
        var removed: [SyncQueryUpdate] = []
        for modification in modifications {
            switch modification {
            case .add(let queryId, let path, let arguments, _):
                guard queries[queryId] == nil else {
                    fatal("query \(queryId) is already live")
                    return
                }
                let key = SyncQueryKey(path: path, arguments: arguments, identity: identity)
                // Clients share one query id between the subscribers of one function and arguments; a second id
                // would only make the server send every result twice.
                if let twin = queries.first(where: { $0.value.key == key })?.key {
                    removed.append(.failed(queryId: queryId, errorMessage: "query \(twin) already runs this function with these arguments", errorData: ["code": 107], logLines: [], journal: nil))
                    continue
                }
                guard queries.count < Self.maximumQueries else {
                    removed.append(.failed(queryId: queryId, errorMessage: "at most \(Self.maximumQueries) live queries a socket", errorData: ["code": 107], logLines: [], journal: nil))
                    continue
                }
                guard gateway.runner.kind(of: path, in: runtime.app) == .query else {
                    let problem = gateway.runner.kind(of: path, in: runtime.app).map { "\(path) is \($0.withArticle), not a query" } ?? "no function named \(path)"
                    removed.append(.failed(queryId: queryId, errorMessage: problem, errorData: ["code": 311], logLines: [], journal: nil))
                    continue
                }
                queries[queryId] = (key, arguments)
                engine.subscribe(bound, to: key, arguments: arguments)
            case .remove(let queryId):
                guard let query = queries.removeValue(forKey: queryId) else { continue }
                sentVersions[queryId] = nil
                engine.unsubscribe(ObjectIdentifier(self), from: query.key)
                removed.append(.removed(queryId: queryId))
            }
        }
        // The new query-set version goes out at once (with removals and refusals); results follow as they come.
        sendTransition(modifications: removed, ts: version.ts)
    }

    /// Results from the engine (on this loop).
    func receive(_ update: SyncLiveUpdate) {
        guard !closed else { return }
        if mutationRunning {
            held.append(update)
            return
        }
        apply(update)
    }

    private func apply(_ update: SyncLiveUpdate) {
        var modifications: [SyncQueryUpdate] = []
        if !update.results.isEmpty {
            var byKey: [SyncQueryKey: SyncLiveUpdate.KeyResult] = [:]
            for result in update.results { byKey[result.key] = result }
            for (queryId, query) in queries.sorted(by: { $0.key < $1.key }) {
                guard let result = byKey[query.key] else { continue }
                if let sent = sentVersions[queryId], sent >= result.version { continue }
                sentVersions[queryId] = result.version
                switch result.outcome {
                case .success(let value):
                    modifications.append(.updated(queryId: queryId, value: value, logLines: [], journal: nil))
                case .failure(let error):
                    modifications.append(.failed(queryId: queryId, errorMessage: error.message, errorData: error.data, logLines: [], journal: nil))
                }
            }
        }
        knownTs = max(knownTs, update.ts)
        // An update that changes nothing for this socket goes out only when a mutation waits for its `ts`.
        guard !modifications.isEmpty || (awaitedTs > version.ts && knownTs >= awaitedTs) else { return }
        sendTransition(modifications: modifications, ts: knownTs)
    }

    private func sendTransition(modifications: [SyncQueryUpdate], ts: Int64) {
        let end = SyncStateVersion(querySet: querySetVersion, identity: identityVersion, ts: max(ts, version.ts))
        let message = SyncServerMessage.transition(start: version, end: end, modifications: modifications)
        version = end
        let text = message.encoded
        guard text.utf8.count <= Self.maximumTransitionBytes else {
            fatal("the live queries' results changed by more than \(Self.maximumTransitionBytes >> 20) MiB at once; subscribe to fewer or smaller queries")
            return
        }
        guard text.utf8.count > Self.chunkBytes else {
            if let socket, !closed { _ = socket.send(text: text) }
            return
        }
        let pieces = SyncTransitionChunks.split(message, maximumBytes: Self.chunkBytes, transitionId: SecureRandom.hex(byteCount: 8))
        for piece in pieces { send(piece) }
    }

    // MARK: - Mutations and actions

    private func runNextMutation() {
        guard !mutationRunning, !mutations.isEmpty, let bound, let sessionId else { return }
        let next = mutations.removeFirst()
        mutationRunning = true
        let gateway = gateway, runtime = runtime, identity = identity
        let ledgerSession = "\(runtime.app.applicationId)\n\(sessionId)"
        Task {
            let (response, refusal) = await gateway.mutateOnce(
                next.requestId, next.path, next.arguments, ledgerSession: ledgerSession, identity: identity, in: runtime)
            bound.loop.execute {
                bound.value.mutationFinished(response, refusedIdentity: refusal)
            }
        }
    }

    private func mutationFinished(_ response: SyncFunctionResponse, refusedIdentity: String?) {
        guard !closed else { return }
        if let refusedIdentity { refuseIdentity(refusedIdentity) }
        send(.mutationResponse(response))
        mutationRunning = false
        if case .success(_, let ts?) = response.outcome { awaitedTs = max(awaitedTs, ts) }
        let waiting = held
        held = []
        for update in waiting { apply(update) }
        // Rule 4: nothing to wait for, or the engine is already there.
        if awaitedTs > version.ts {
            if queries.isEmpty {
                sendTransition(modifications: [], ts: awaitedTs)
            } else if awaitedTs <= knownTs {
                sendTransition(modifications: [], ts: knownTs)
            }
        }
        runNextMutation()
    }

    private func runAction(_ requestId: Int64, _ path: SyncFunctionPath, _ arguments: [String: JSONValue]) {
        guard actionsRunning < Self.maximumActions, let bound else {
            send(.actionResponse(.init(requestId: requestId, outcome: .failure(message: "at most \(Self.maximumActions) actions run at once on a socket", errorData: ["code": 107]))))
            return
        }
        actionsRunning += 1
        let gateway = gateway, runtime = runtime, identity = identity
        Task {
            let run = await gateway.act(path, arguments, identity: identity, in: runtime)
            let response = SyncFunctionResponse(requestId: requestId, outcome: .init(run))
            bound.loop.execute {
                let session = bound.value
                session.actionsRunning -= 1
                guard !session.closed else { return }
                session.send(.actionResponse(response))
            }
        }
    }

    // MARK: - Sending

    private func send(_ message: SyncServerMessage) {
        guard let socket, !closed else { return }
        _ = socket.send(text: message.encoded)
    }

    /// Rule 1: a `FatalError`, then a close.
    private func fatal(_ reason: String) {
        guard let socket, !closed else { return }
        send(.fatalError(error: reason))
        socket.close(code: .policyViolation, reason: String(reason.prefix(100)))
    }

    private func schedulePing() {
        guard let socket else { return }
        pingTimer = socket.loop.scheduleTimer(afterNanoseconds: Self.pingIntervalNanoseconds) { [weak self] in
            guard let self, !self.closed else { return }
            self.send(.ping)
            self.schedulePing()
        }
    }
}
