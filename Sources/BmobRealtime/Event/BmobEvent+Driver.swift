import BmobCore
import BmobWire
import Foundation

/// The driver: runs the socket.io client state machine's actions. Sends and closes happen under the lock,
/// so the server sees packets in the machine's order; everything that calls out (tasks, streams, the
/// delegate) happens after it is released.
extension BmobEvent {
    typealias Action = SocketIOClientStateMachine.Action

    /// Feeds one event to the machine and performs the resulting actions.
    func handle(_ event: (inout SocketIOClientStateMachine) -> [Action]) {
        let deferred = lock.withLock { () -> [Action] in
            var deferred: [Action] = []
            for action in event(&machine) {
                switch action {
                case .send(let attempt, let packets):
                    guard let transport = transports[attempt] else { continue }
                    for packet in packets { transport.send(.text(packet.clientText)) }
                case .closeWebSocket(let attempt):
                    transports.removeValue(forKey: attempt)?.close(code: .normalClosure, reason: "")
                    addresses.removeValue(forKey: attempt)
                case .openWebSocket(let attempt, _):
                    transports[attempt] = environment.makeTransport()
                    deferred.append(action)
                default:
                    deferred.append(action)
                }
            }
            return deferred
        }
        for action in deferred { perform(action) }
    }

    /// Performs an action that calls out; never called with the lock held.
    func perform(_ action: Action) {
        switch action {
        case .startHandshake(let attempt):
            startHandshake(attempt: attempt)
        case .openWebSocket(let attempt, let sid):
            openWebSocket(attempt: attempt, sid: sid)
        case .scheduleReconnect(let attempt, let delay):
            let task = Task { [weak self] in
                try? await Task.sleep(nanoseconds: delay.sleepNanoseconds)
                guard !Task.isCancelled, let self else { return }
                self.handle { $0.reconnectTimerFired(attempt: attempt) }
            }
            replace(\.reconnectTask, with: task)
            replace(\.watchdogTask, with: nil)
        case .startHeartbeatWatchdog(let attempt, let interval):
            let task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: interval.sleepNanoseconds)
                    guard !Task.isCancelled, let self else { return }
                    self.handle { $0.heartbeatCheckDue(attempt: attempt) }
                }
            }
            replace(\.watchdogTask, with: task)
        case .notifyConnected:
            notifyDelegate { delegate, event in delegate.bmobEventDidConnect(event) }
        case .notifyReady:
            notifyDelegate { delegate, event in delegate.bmobEventCanStartListen(event) }
        case .deliver(let message):
            let continuations = lock.withLock { Array(streams.values) }
            for continuation in continuations { continuation.yield(message) }
            notifyDelegate { delegate, event in delegate.bmobEvent(event, didReceiveMessage: message) }
        case .notifyFailure(let failure):
            let error = Self.bmobError(failure)
            notifyDelegate { delegate, event in delegate.bmobEvent(event, didFailWithError: error) }
        case .notifyDisconnected(let failure):
            let error = failure.map(Self.bmobError)
            notifyDelegate { delegate, event in delegate.bmobEventDidDisconnect(event, error: error) }
        case .finishStreams:
            let continuations = lock.withLock { () -> [AsyncStream<BmobEventMessage>.Continuation] in
                defer { streams = [:] }
                return Array(streams.values)
            }
            for continuation in continuations { continuation.finish() }
            replace(\.watchdogTask, with: nil)
        case .send, .closeWebSocket:
            // Performed under the lock by handle(_:).
            break
        }
    }

    /// The public error for a failure.
    static func bmobError(_ failure: BmobEventFailure) -> BmobError {
        switch failure {
        case .notInitialized: .notInitialized
        case .timedOut: .timeout
        case .invalidSubscription(let reason): .invalidParameter(reason: reason)
        default: .networkError(underlying: failure)
        }
    }

    // MARK: - Steps

    private func startHandshake(attempt: Int) {
        let environment = self.environment
        let task = Task { [weak self] in
            do throws(BmobEventFailure) {
                let (appKey, address) = try await environment.resolveApp()
                guard let url = URL(string: address.handshakeURL(milliseconds: environment.milliseconds())) else {
                    throw .handshakeFailed("invalid realtime address")
                }
                let handshake = try await environment.fetchHandshake(url, environment.connectTimeout)
                guard let self else { return }
                lock.withLock { addresses[attempt] = address }
                handle { $0.handshakeSucceeded(attempt: attempt, handshake: handshake, appKey: appKey) }
            } catch {
                self?.handle { $0.handshakeFailed(attempt: attempt, failure: error) }
            }
        }
        replace(\.handshakeTask, with: task)
    }

    private func openWebSocket(attempt: Int, sid: String) {
        let (transport, address) = lock.withLock { (transports[attempt], addresses[attempt]) }
        guard let transport, let address, let url = URL(string: address.webSocketURL(sid: sid)) else {
            handle { $0.webSocketOpenFailed(attempt: attempt, failure: .webSocketFailed("invalid WebSocket URL")) }
            return
        }
        let timeout = environment.connectTimeout
        let task = Task { [weak self] in
            do {
                try await transport.connect(
                    to: url,
                    headers: [
                        HTTPField(name: "Origin", value: address.httpOrigin),
                        HTTPField(name: "User-Agent", value: BmobUserAgent.product),
                    ],
                    timeout: timeout,
                    onEvent: { [weak self] event in self?.transportEvent(event, attempt: attempt) })
                self?.handle { $0.webSocketOpened(attempt: attempt) }
            } catch {
                let failure: BmobEventFailure =
                    if let error = error as? WebSocketTransportError, error.code == .timedOut {
                        .timedOut
                    } else {
                        .webSocketFailed(String(describing: error))
                    }
                self?.handle { $0.webSocketOpenFailed(attempt: attempt, failure: failure) }
            }
        }
        replace(\.connectTask, with: task)
    }

    private func transportEvent(_ event: WebSocketTransportEvent, attempt: Int) {
        switch event {
        case .message(.text(let text)):
            handle { $0.textReceived(attempt: attempt, text) }
        case .message(.binary):
            // socket.io 0.9 sends text only.
            break
        case .closed(let closure):
            lock.withLock {
                transports.removeValue(forKey: attempt)
                addresses.removeValue(forKey: attempt)
            }
            let reason = closure.error.map { "\($0.message)" } ?? closure.reason
            handle { $0.webSocketClosed(attempt: attempt, failure: .connectionClosed(code: closure.code.rawValue, reason: reason)) }
        }
    }

    /// Stores a task in one of the task slots, cancelling the one it replaces.
    private func replace(_ slot: ReferenceWritableKeyPath<BmobEvent, Task<Void, Never>?>, with task: Task<Void, Never>?) {
        let previous = lock.withLock { () -> Task<Void, Never>? in
            defer { self[keyPath: slot] = task }
            return self[keyPath: slot]
        }
        if previous != task { previous?.cancel() }
    }

    /// Calls the delegate on the main queue, if there is one then.
    private func notifyDelegate(_ call: @escaping @MainActor @Sendable (any BmobEventDelegate, BmobEvent) -> Void) {
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                guard let delegate = self.delegate else { return }
                call(delegate, self)
            }
        }
    }
}
