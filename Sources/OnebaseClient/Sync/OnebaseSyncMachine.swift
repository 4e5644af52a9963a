package import BmobRealtime
import BmobCrypto
package import BmobWire
package import Foundation

/// The client's sync logic as a state machine (`sync.md` §1.3–§1.8, §2): each event is a `mutating` method returning
/// the ``Action``s the driver (``OnebaseClient``) performs. No sockets, clocks or threads: time comes in through
/// timer events, `now` arguments and the injected `clock`. It writes the offline store (``OfflineStore``) itself,
/// since the queue's write-ahead `sent` mark must be on disk before the message goes out.
///
/// Rules it implements:
/// 1. One socket at a time (`attempt`); events of other attempts are ignored. A fresh socket starts from version 0:
///    `Connect`, `Authenticate` (the token, or `None`), one `ModifyQuerySet` re-adding every live query with its old
///    id.
/// 2. Mutations go out once the server confirmed the identity (`AuthOk`), strictly in call order and one at a time
///    (the next once the one before is answered; the server runs a socket's mutations one at a time anyway); a queued
///    one whose owner is not the confirmed user is dropped and reported. Each is sent at most once per run: the one
///    sent on a socket that drops fails ("connection lost") and never goes again; the rest stay queued.
/// 3. No flicker (§1.5): a successful `MutationResponse` keeps the optimistic update until a `Transition` reaches
///    its `ts`; then, in one step, the update is dropped, the others are replayed over the new results, the changed
///    subscriptions are told, and only then the caller resumes. A failure rejects at once and drops the update.
/// 4. Transitions chain: a `startVersion` other than the current version drops the socket and reconnects.
/// 5. Offline (§2.6): server results are cached for the confirmed user; cached results are shown while a query has no
///    live one, only when the stored owner is the user the server last confirmed for the same token; a different
///    user clears the cache.
package struct OnebaseSyncMachine {
    /// The timers the driver runs.
    package enum Timer: Sendable, Hashable {
        /// The backoff before the next attempt.
        case reconnect
        /// The periodic check for a silent server.
        case silence
    }

    /// What the driver does.
    package enum Action: Sendable, Equatable {
        /// Make a transport for `attempt` and open it.
        case openTransport(attempt: Int)
        /// Close the transport of `attempt`; its closure will be ignored.
        case closeTransport(attempt: Int)
        /// Send a text message on the transport of `attempt`.
        case send(attempt: Int, text: String)
        /// Start (or restart) a timer; fire it back with the attempt.
        case startTimer(Timer, attempt: Int, after: RealtimeDuration)
        /// Cancel every timer.
        case cancelTimers
        /// Tell ``OnebaseClient/onConnectionChange``.
        case connectionChanged(OnebaseConnectionState)
        /// Call the subscription's `onUpdate` with its new effective value.
        case deliver(subscriber: Int, value: OnebaseValue?)
        /// Resume the caller of mutation or action `requestId`.
        case resolve(requestId: Int64, Result<OnebaseValue?, OnebaseError>)
        /// Resume the caller of one-shot query `waiter`.
        case resolveQuery(waiter: Int, Result<OnebaseValue?, OnebaseError>)
        /// Tell ``OnebaseClient/onQueuedMutationFailure`` about a queued mutation of an earlier run.
        case queuedMutationFailed(name: String, args: [String: OnebaseValue], error: OnebaseError)
        /// Tell ``OnebaseClient/onAuthChange``.
        case authChanged(Bool)
        /// Delete the stored token: the server refused it.
        case deleteToken
    }

    /// Where the connection is.
    package enum Phase: Sendable, Equatable {
        /// Not started.
        case idle
        /// The transport of the current attempt is opening.
        case connecting
        /// The transport is open.
        case open(OpenSocket)
        /// Waiting out the backoff.
        case waiting
        /// A `FatalError` stopped the client; a new token starts it again.
        case stopped
    }

    /// An open socket's state.
    package struct OpenSocket: Sendable, Equatable {
        /// The user the server confirmed on this socket (`""`: signed out); mutations go out once it is known.
        var user: String?
        /// Whether anything arrived since the last silence check.
        var heard = false
        /// Silence checks in a row that found nothing.
        var silentChecks = 0
    }

    private enum RequestState: Equatable {
        case notSent
        case sent
        case completed(result: OnebaseValue?, ts: Int64)
    }

    private struct Request {
        let isMutation: Bool
        let name: String
        let token: OnebaseQueryToken
        var state: RequestState = .notSent
        /// The on-disk queue entry, if any.
        let queueId: String?
        /// Its owner, for mutations queued on disk.
        let owner: String?
        /// `false` for a mutation queued by an earlier run: nobody awaits it.
        let hasCaller: Bool
    }

    private enum RemoteResult {
        case value(OnebaseValue)
        case failed(OnebaseError)
    }

    private struct Subscriber {
        let token: OnebaseQueryToken
        /// The last value delivered; `.none` before the first.
        var delivered: OnebaseValue??
    }

    /// The period of the silence check.
    package static let silenceCheckInterval = RealtimeDuration.seconds(15)
    /// Silent checks in a row after which the socket counts as dead: 60 s to 75 s of silence (`sync.md` §1.7).
    package static let silentChecksBeforeReconnect = 4

    /// Where the connection is.
    package private(set) var phase = Phase.idle
    /// The number of the current attempt.
    package private(set) var attempt = 0
    /// Failed attempts in a row.
    package private(set) var failures = 0
    /// The state version the server's results are at, on this socket.
    package private(set) var version = SyncStateVersion.initial
    /// The connection state apps were last told.
    package private(set) var publicState = OnebaseConnectionState.closed

    private let sessionId: String
    private let backoff: OnebaseReconnectBackoff
    private let jitter: @Sendable () -> Double
    /// The time of the offline cache's records.
    private let clock: @Sendable () -> Date
    private let offline: OfflineStore?
    private var connectionCount: Int64 = 0
    private var lastCloseReason = "InitialConnect"
    private var maxObservedTimestamp: Int64?
    private var token: String?
    private var authenticated = false
    /// Whether cached results may be shown: the store's owner was confirmed for the current token.
    private var cacheReleased = false

    private var querySet = OnebaseLocalQuerySet()
    private var remote: [Int64: RemoteResult] = [:]
    /// Results of an earlier socket, shown until the new socket's arrive.
    private var stale: [OnebaseQueryToken: OnebaseValue] = [:]
    private var assembler = SyncTransitionAssembler()
    private var subscribers: [Int: Subscriber] = [:]
    private var waiters: [Int: OnebaseQueryToken] = [:]
    private var optimistic = OnebaseOptimisticLayer()
    private var requests: [Int64: Request] = [:]
    private var nextRequestId: Int64 = 0

    /// A machine in ``Phase/idle``.
    ///
    /// - Parameters:
    ///   - sessionId: the client instance's id, kept across reconnects.
    ///   - token: the stored token, if any.
    ///   - offline: the offline store, if any.
    ///   - backoff: the reconnection backoff.
    ///   - jitter: a random number in `[0, 1]` for each backoff.
    ///   - clock: the time, for the offline cache's records.
    package init(
        sessionId: String, token: String?, offline: OfflineStore?, backoff: OnebaseReconnectBackoff = .init(initial: .seconds(1)),
        jitter: @escaping @Sendable () -> Double, clock: @escaping @Sendable () -> Date
    ) {
        self.clock = clock
        self.sessionId = sessionId
        self.token = token
        self.offline = offline
        self.backoff = backoff
        self.jitter = jitter
        if let meta = offline?.meta, meta.confirmedUserId != nil, meta.tokenHash == Self.hash(token) {
            cacheReleased = true
        }
    }

    // MARK: - Reads

    /// Mutations not answered yet (queued, or sent and unanswered).
    package var queuedMutationCount: Int {
        requests.values.count { request in
            guard request.isMutation else { return false }
            if case .completed = request.state { return false }
            return true
        }
    }

    /// The number of optimistic updates applied.
    package var optimisticUpdateCount: Int { optimistic.count }

    /// The current token.
    package var currentToken: String? { token }

    // MARK: - App calls

    /// The client starts: reports mutations that a crashed run left `sent`, takes the rest of the queue, and
    /// connects.
    package mutating func start() -> [Action] {
        var actions: [Action] = []
        if let offline {
            var lost: Set<String> = []
            for entry in offline.queuedMutations {
                if entry.state == .sent {
                    lost.insert(entry.localId)
                    actions.append(
                        .queuedMutationFailed(
                            name: entry.name, args: entry.args,
                            error: OnebaseError(message: "the app stopped while the mutation was in flight")))
                    continue
                }
                guard let token = try? OnebaseQueryToken(name: entry.name, arguments: entry.args) else {
                    lost.insert(entry.localId)
                    continue
                }
                let id = takeRequestId()
                requests[id] = Request(
                    isMutation: true, name: entry.name, token: token, queueId: entry.localId, owner: entry.ownerUserId,
                    hasCaller: false)
            }
            offline.removeQueued(lost)
        }
        return actions + startAttempt()
    }

    /// The app subscribes `subscriber` to `token`.
    package mutating func subscribe(_ subscriber: Int, to token: OnebaseQueryToken) -> [Action] {
        subscribers[subscriber] = Subscriber(token: token, delivered: .none)
        var actions = addQuery(token)
        actions += refresh()
        return actions
    }

    /// The app cancels `subscriber`.
    package mutating func unsubscribe(_ subscriber: Int) -> [Action] {
        guard let entry = subscribers.removeValue(forKey: subscriber) else { return [] }
        return removeQuery(entry.token)
    }

    /// The app runs the one-shot query `token` for `waiter`: answered at once from a live result, else by the
    /// server's first result.
    package mutating func query(_ waiter: Int, _ token: OnebaseQueryToken) -> [Action] {
        if let queryId = querySet.queryId(of: token), let result = remote[queryId] {
            return [.resolveQuery(waiter: waiter, Self.result(result))]
        }
        waiters[waiter] = token
        return addQuery(token)
    }

    /// The app calls a mutation.
    ///
    /// - Returns: its request id (the id of ``Action/resolve(requestId:_:)``) and the actions.
    package mutating func mutation(
        _ token: OnebaseQueryToken, name: String, update: OnebaseOptimisticLayer.Update?, now: Date
    ) -> (Int64, [Action]) {
        let id = takeRequestId()
        let owner = cacheReleased ? offline?.meta.confirmedUserId : nil
        let queueId = offline?.enqueue(
            name: name, args: token.arguments.mapValues(OnebaseValue.init(json:)), owner: owner, now: now)
        requests[id] = Request(
            isMutation: true, name: name, token: token, queueId: queueId, owner: owner, hasCaller: true)
        var actions: [Action] = []
        if let update {
            optimistic.add(requestId: id, update)
            actions += refresh()
        }
        actions += sendNextMutation()
        return (id, actions)
    }

    /// The app calls an action: sent at once, or failed at once when the socket is not open.
    ///
    /// - Returns: its request id and the actions.
    package mutating func action(_ token: OnebaseQueryToken, name: String) -> (Int64, [Action]) {
        let id = takeRequestId()
        guard case .open = phase else { return (id, [.resolve(requestId: id, .failure(.notConnected))]) }
        requests[id] = Request(isMutation: false, name: name, token: token, queueId: nil, owner: nil, hasCaller: true)
        return (id, send(id))
    }

    /// The token changed (sign-in, ``OnebaseClient/setToken(_:)``, sign-out): results of the old identity are
    /// dropped, the cache is held back until the server confirms the new user, and the client reconnects with it.
    package mutating func setToken(_ newToken: String?) -> [Action] {
        token = newToken
        cacheReleased = false
        var actions: [Action] = []
        if authenticated {
            authenticated = false
            if newToken == nil { actions.append(.authChanged(false)) }
        }
        actions += reconnectNow(reason: "AuthChanged")
        stale = [:]
        actions += refresh()
        return actions
    }

    /// Signed out: the cache is someone's data, so it goes now.
    package mutating func signedOut() -> [Action] {
        offline?.clearCache()
        return setToken(nil)
    }

    /// The app clears the queue: mutations not sent yet are dropped, their callers fail.
    package mutating func clearQueuedMutations() -> [Action] {
        var resolutions: [Action] = []
        var removed: Set<String> = []
        for id in requests.keys.sorted() {
            guard let request = requests[id], request.isMutation, request.state == .notSent else { continue }
            requests[id] = nil
            optimistic.remove(requestId: id)
            if let queueId = request.queueId { removed.insert(queueId) }
            if request.hasCaller {
                resolutions.append(
                    .resolve(requestId: id, .failure(OnebaseError(message: "the queued mutation was cleared"))))
            }
        }
        offline?.removeQueued(removed)
        return refresh() + resolutions
    }

    // MARK: - Transport events

    /// The transport of `attempt` opened: the opening burst goes out.
    package mutating func transportOpened(attempt: Int, now: Date) -> [Action] {
        guard attempt == self.attempt, phase == .connecting else { return [] }
        phase = .open(OpenSocket())
        version = .initial
        assembler = SyncTransitionAssembler()
        let connect = SyncConnect(
            sessionId: sessionId, connectionCount: connectionCount, lastCloseReason: lastCloseReason,
            maxObservedTimestamp: maxObservedTimestamp, clientTs: Int64(now.timeIntervalSince1970 * 1000))
        connectionCount += 1
        var messages: [SyncClientMessage] = [
            .connect(connect),
            .authenticate(tokenType: token == nil ? .none : .user, value: token, baseVersion: 0),
        ]
        if let modify = querySet.restart() { messages.append(modify) }
        var actions = announce(.open)
        actions += messages.map { .send(attempt: attempt, text: $0.encoded) }
        actions.append(.startTimer(.silence, attempt: attempt, after: Self.silenceCheckInterval))
        return actions
    }

    /// The transport of `attempt` could not be opened.
    package mutating func transportOpenFailed(attempt: Int) -> [Action] {
        guard attempt == self.attempt, phase == .connecting else { return [] }
        return connectionLost(reason: "ConnectFailed") + backOff()
    }

    /// The transport of `attempt` closed.
    package mutating func transportClosed(attempt: Int, reason: String) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch phase {
        case .connecting, .open: return connectionLost(reason: reason) + backOff()
        case .idle, .waiting, .stopped: return []
        }
    }

    /// A text message arrived on the transport of `attempt`.
    package mutating func messageReceived(attempt: Int, text: String) -> [Action] {
        guard attempt == self.attempt, case .open(var socket) = phase else { return [] }
        socket.heard = true
        socket.silentChecks = 0
        phase = .open(socket)
        let message: SyncServerMessage
        do {
            message = try SyncServerMessage(decoding: text)
        } catch where error.kind == .unknownType {
            // A message type newer than this client: ignored, so servers can add messages.
            return []
        } catch {
            return dropSocket(reason: "InvalidMessage")
        }
        return received(message)
    }

    /// A timer of `attempt` fired.
    package mutating func timerFired(_ timer: Timer, attempt: Int) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch (timer, phase) {
        case (.reconnect, .waiting):
            return startAttempt()
        case (.silence, .open(var socket)):
            if socket.heard {
                socket.heard = false
                socket.silentChecks = 0
            } else {
                socket.silentChecks += 1
            }
            phase = .open(socket)
            guard socket.silentChecks < Self.silentChecksBeforeReconnect else {
                return dropSocket(reason: "ServerInactivity")
            }
            return [.startTimer(.silence, attempt: attempt, after: Self.silenceCheckInterval)]
        default:
            return []
        }
    }

    // MARK: - Server messages

    private mutating func received(_ message: SyncServerMessage) -> [Action] {
        switch message {
        case .transition(let start, let end, let modifications):
            return transition(start: start, end: end, modifications: modifications)
        case .transitionChunk(let chunk, let partNumber, let totalParts, let transitionId):
            do {
                guard
                    let joined = try assembler.add(
                        chunk: chunk, partNumber: partNumber, totalParts: totalParts, transitionId: transitionId)
                else { return [] }
                return received(joined)
            } catch {
                return dropSocket(reason: "InvalidTransitionChunk")
            }
        case .mutationResponse(let response):
            return mutationResponse(response)
        case .actionResponse(let response):
            guard let request = requests[response.requestId], !request.isMutation else { return [] }
            requests[response.requestId] = nil
            return [.resolve(requestId: response.requestId, Self.result(response.outcome))]
        case .authOk(_, let userId):
            return authOk(userId: userId ?? "")
        case .authError:
            return authError()
        case .fatalError(let error):
            var actions: [Action] = [.cancelTimers, .closeTransport(attempt: attempt)]
            actions += connectionLost(reason: "FatalError: \(error.prefix(200))")
            phase = .stopped
            return actions
        case .ping:
            return []
        }
    }

    private mutating func transition(
        start: SyncStateVersion, end: SyncStateVersion, modifications: [SyncQueryUpdate]
    ) -> [Action] {
        guard start == version else { return dropSocket(reason: "TransitionOutOfOrder") }
        guard case .open(let socket) = phase else { return [] }
        var answered: [Action] = []
        for modification in modifications {
            switch modification {
            case .updated(let queryId, let value, _, _):
                guard let token = querySet.token(of: queryId) else { continue }
                let value = OnebaseValue(json: value)
                remote[queryId] = .value(value)
                stale[token] = nil
                if let user = socket.user {
                    offline?.saveCache(token.canonical, value: value, user: user, now: clock())
                }
                answered += answerWaiters(token, .success(value))
            case .failed(let queryId, let message, let errorData, _, _):
                guard let token = querySet.token(of: queryId) else { continue }
                let error = OnebaseError(message: message, data: errorData.map(OnebaseValue.init(json:)))
                remote[queryId] = .failed(error)
                stale[token] = nil
                answered += answerWaiters(token, .failure(error))
            case .removed(let queryId):
                remote[queryId] = nil
            }
        }
        version = end
        maxObservedTimestamp = max(maxObservedTimestamp ?? 0, end.ts)
        var completed: [Action] = []
        for id in requests.keys.sorted() {
            guard case .completed(let result, let ts)? = requests[id]?.state, ts <= end.ts else { continue }
            requests[id] = nil
            optimistic.remove(requestId: id)
            completed.append(.resolve(requestId: id, .success(result)))
        }
        return refresh() + completed + answered
    }

    private mutating func mutationResponse(_ response: SyncFunctionResponse) -> [Action] {
        let id = response.requestId
        guard let request = requests[id], request.isMutation, request.state == .sent else { return [] }
        if let queueId = request.queueId { offline?.removeQueued([queueId]) }
        var actions: [Action]
        switch response.outcome {
        case .success(let value, let ts):
            let value = OnebaseValue(json: value)
            let result: OnebaseValue? = value.isNull ? nil : value
            if let ts, ts > version.ts {
                maxObservedTimestamp = max(maxObservedTimestamp ?? 0, ts)
                requests[id]?.state = .completed(result: result, ts: ts)
                actions = []
            } else {
                // Already covered by the results shown (or no commit to wait for).
                requests[id] = nil
                optimistic.remove(requestId: id)
                actions = refresh() + (request.hasCaller ? [.resolve(requestId: id, .success(result))] : [])
            }
        case .failure(let message, let errorData):
            requests[id] = nil
            optimistic.remove(requestId: id)
            let error = OnebaseError(message: message, data: errorData.map(OnebaseValue.init(json:)))
            actions = refresh() + [fail(request, id: id, error)]
        }
        return actions + sendNextMutation()
    }

    /// Sends the oldest mutation not sent yet, unless one is sent and unanswered: mutations go out one at a time,
    /// so a socket that drops loses at most one (whose fate is then unknown, so it fails) and the rest wait, still
    /// queued, for the next connection.
    private mutating func sendNextMutation() -> [Action] {
        guard case .open(let socket) = phase, socket.user != nil else { return [] }
        guard !requests.values.contains(where: { $0.isMutation && $0.state == .sent }) else { return [] }
        let next = requests.lazy.filter { $0.value.isMutation && $0.value.state == .notSent }.map(\.key).min()
        guard let next else { return [] }
        return send(next)
    }

    private mutating func authOk(userId: String) -> [Action] {
        guard case .open(var socket) = phase else { return [] }
        socket.user = userId
        phase = .open(socket)
        failures = 0
        var actions: [Action] = []
        if token != nil, !authenticated {
            authenticated = true
            actions.append(.authChanged(true))
        }
        if let offline {
            let meta = offline.meta
            if meta.confirmedUserId != userId { offline.clearCache() }
            offline.setMeta(OfflineStoreMeta(confirmedUserId: userId, tokenHash: Self.hash(token)))
            if !cacheReleased {
                cacheReleased = true
                actions += refresh()
            }
        }
        // Queued mutations go out now, in order; one queued by another user is not run as this one.
        var dropped: [Action] = []
        for id in requests.keys.sorted() {
            guard let request = requests[id], request.state == .notSent else { continue }
            if let owner = request.owner, owner != userId {
                requests[id] = nil
                optimistic.remove(requestId: id)
                if let queueId = request.queueId { offline?.removeQueued([queueId]) }
                dropped.append(fail(request, id: id, OnebaseError(message: "the mutation was queued by another user")))
                continue
            }
        }
        if !dropped.isEmpty { actions += refresh() + dropped }
        return actions + sendNextMutation()
    }

    private mutating func authError() -> [Action] {
        guard token != nil else { return dropSocket(reason: "AuthError") }
        // The token stopped checking out (or never did): apps hear false either way.
        var actions: [Action] = [.deleteToken, .authChanged(false)]
        token = nil
        cacheReleased = false
        authenticated = false
        actions += reconnectNow(reason: "AuthError")
        stale = [:]
        return actions + refresh()
    }

    // MARK: - Connection

    private mutating func startAttempt() -> [Action] {
        attempt += 1
        phase = .connecting
        return announce(.connecting) + [.openTransport(attempt: attempt)]
    }

    private mutating func backOff() -> [Action] {
        failures += 1
        phase = .waiting
        let delay = backoff.delay(afterFailures: failures, unit: jitter())
        return announce(.connecting) + [.startTimer(.reconnect, attempt: attempt, after: delay)]
    }

    /// Closes the socket (a protocol error or silence) and backs off.
    private mutating func dropSocket(reason: String) -> [Action] {
        [.cancelTimers, .closeTransport(attempt: attempt)] + connectionLost(reason: reason) + backOff()
    }

    /// Closes the socket, if any, and connects again at once.
    private mutating func reconnectNow(reason: String) -> [Action] {
        var actions: [Action] = [.cancelTimers]
        switch phase {
        case .connecting, .open:
            actions.append(.closeTransport(attempt: attempt))
            actions += connectionLost(reason: reason)
        case .idle:
            return []
        case .waiting, .stopped:
            break
        }
        failures = 0
        return actions + startAttempt()
    }

    /// The socket is gone: actions and sent mutations fail (at most once), completed mutations resolve, results move
    /// to `stale`.
    private mutating func connectionLost(reason: String) -> [Action] {
        let wasOpen: Bool
        if case .open = phase { wasOpen = true } else { wasOpen = false }
        lastCloseReason = String(reason.prefix(SyncConnect.maximumReasonLength))
        phase = .waiting
        for (queryId, result) in remote {
            if case .value(let value) = result, let token = querySet.token(of: queryId) { stale[token] = value }
        }
        remote = [:]
        version = .initial
        assembler = SyncTransitionAssembler()
        var resolutions: [Action] = []
        var removed: Set<String> = []
        for id in requests.keys.sorted() {
            guard let request = requests[id] else { continue }
            switch request.state {
            case .notSent:
                continue
            case .completed(let result, _):
                requests[id] = nil
                optimistic.remove(requestId: id)
                if request.hasCaller { resolutions.append(.resolve(requestId: id, .success(result))) }
            case .sent:
                requests[id] = nil
                optimistic.remove(requestId: id)
                if let queueId = request.queueId { removed.insert(queueId) }
                resolutions.append(fail(request, id: id, .connectionLost))
            }
        }
        offline?.removeQueued(removed)
        var actions = wasOpen ? announce(.closed) : []
        actions += refresh()
        return actions + resolutions
    }

    private mutating func announce(_ state: OnebaseConnectionState) -> [Action] {
        guard state != publicState else { return [] }
        publicState = state
        return [.connectionChanged(state)]
    }

    // MARK: - Requests

    private mutating func takeRequestId() -> Int64 {
        defer { nextRequestId += 1 }
        return nextRequestId
    }

    /// Sends request `id` (a mutation's queue entry is marked `sent` on disk first).
    private mutating func send(_ id: Int64) -> [Action] {
        guard var request = requests[id], request.state == .notSent else { return [] }
        if let queueId = request.queueId { offline?.markSent(queueId) }
        request.state = .sent
        requests[id] = request
        let message: SyncClientMessage =
            request.isMutation
            ? .mutation(requestId: id, path: request.token.path, arguments: request.token.arguments)
            : .action(requestId: id, path: request.token.path, arguments: request.token.arguments)
        return [.send(attempt: attempt, text: message.encoded)]
    }

    /// The failure of `request`: to its caller, or to the queued-mutation handler when nobody awaits it.
    private func fail(_ request: Request, id: Int64, _ error: OnebaseError) -> Action {
        request.hasCaller
            ? .resolve(requestId: id, .failure(error))
            : .queuedMutationFailed(
                name: request.name, args: request.token.arguments.mapValues(OnebaseValue.init(json:)), error: error)
    }

    // MARK: - Queries

    private mutating func addQuery(_ token: OnebaseQueryToken) -> [Action] {
        guard let add = querySet.add(token) else { return [] }
        guard case .open = phase else { return [] }
        return [.send(attempt: attempt, text: querySet.message([add]).encoded)]
    }

    private mutating func removeQuery(_ token: OnebaseQueryToken) -> [Action] {
        guard let remove = querySet.remove(token) else { return [] }
        remote[remove.queryId] = nil
        stale[token] = nil
        guard case .open = phase else { return [] }
        return [.send(attempt: attempt, text: querySet.message([remove]).encoded)]
    }

    /// Resolves the one-shot queries of `token`.
    private mutating func answerWaiters(_ token: OnebaseQueryToken, _ result: Result<OnebaseValue?, OnebaseError>)
        -> [Action]
    {
        var actions: [Action] = []
        for (waiter, waited) in waiters.sorted(by: { $0.key < $1.key }) where waited == token {
            waiters[waiter] = nil
            actions.append(.resolveQuery(waiter: waiter, result))
            actions += removeQuery(token)
        }
        return actions
    }

    /// The effective result of every subscribed query (live, else stale, else cached; then the optimistic updates),
    /// and a delivery for each subscriber whose value changed.
    private mutating func refresh() -> [Action] {
        guard !subscribers.isEmpty else { return [] }
        let cacheUser = cacheReleased ? offline?.meta.confirmedUserId : nil
        var base: [OnebaseQueryToken: OnebaseValue?] = [:]
        for token in querySet.allTokens { base[token] = .some(baseValue(token, cacheUser: cacheUser)) }
        let view = optimistic.view(over: base)
        var actions: [Action] = []
        for id in subscribers.keys.sorted() {
            guard var subscriber = subscribers[id] else { continue }
            let value = view[subscriber.token] ?? nil
            switch subscriber.delivered {
            case .none where value == nil: continue
            case .some(let last) where last == value: continue
            default: break
            }
            subscriber.delivered = .some(value)
            subscribers[id] = subscriber
            actions.append(.deliver(subscriber: id, value: value))
        }
        return actions
    }

    /// A query's result before optimistic updates: this socket's, else an earlier socket's, else the cache's (for
    /// `cacheUser`); `nil` while loading or after a failure.
    private func baseValue(_ token: OnebaseQueryToken, cacheUser: String?) -> OnebaseValue? {
        if let queryId = querySet.queryId(of: token), let result = remote[queryId] {
            if case .value(let value) = result { return value }
            return nil
        }
        if let value = stale[token] { return value }
        if let cacheUser { return offline?.cachedValue(token.canonical, user: cacheUser) }
        return nil
    }

    private static func result(_ remote: RemoteResult) -> Result<OnebaseValue?, OnebaseError> {
        switch remote {
        case .value(let value): .success(value.isNull ? nil : value)
        case .failed(let error): .failure(error)
        }
    }

    private static func result(_ outcome: SyncFunctionResponse.Outcome) -> Result<OnebaseValue?, OnebaseError> {
        switch outcome {
        case .success(let value, _):
            let value = OnebaseValue(json: value)
            return .success(value.isNull ? nil : value)
        case .failure(let message, let errorData):
            return .failure(OnebaseError(message: message, data: errorData.map(OnebaseValue.init(json:))))
        }
    }

    /// SHA-256 of the token (of `""` for none), to tell whether the confirmed user's token is still the one in use.
    static func hash(_ token: String?) -> String {
        SHA256.hex(Array((token ?? "").utf8))
    }
}
