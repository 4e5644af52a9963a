import BmobRealtime
import BmobWire
import Foundation

/// The driver: runs the state machine's actions. Sends, closes, disk writes and the queueing of main-queue
/// deliveries happen under the lock, so the server sees messages and the app sees results in the machine's order;
/// what awaits (connecting, timers) runs in tasks started after the lock is released.
extension OnebaseClient {
    /// Feeds one event to the machine and performs the resulting actions.
    func handle(_ event: (inout OnebaseSyncMachine) -> [Action]) {
        let deferred = lock.withLock { () -> [Action] in
            var deferred: [Action] = []
            for action in event(&machine) {
                switch action {
                case .send(let attempt, let text):
                    transports[attempt]?.send(.text(text))
                case .closeTransport(let attempt):
                    transports.removeValue(forKey: attempt)?.close(code: .normalClosure, reason: "")
                case .openTransport(let attempt):
                    transports[attempt] = environment.makeTransport()
                    deferred.append(action)
                case .cancelTimers:
                    timers.cancelAll()
                case .startTimer:
                    deferred.append(action)
                case .connectionChanged(let state):
                    announce(state)
                case .deliver(let subscriber, let value):
                    deliver(value, to: subscriber)
                case .resolve(let requestId, let result):
                    if let caller = callers.removeValue(forKey: requestId) {
                        onMain { caller.resume(with: result.mapError { $0 as any Error }) }
                    }
                case .resolveQuery(let waiter, let result):
                    if let caller = queryCallers.removeValue(forKey: waiter) {
                        onMain { caller.resume(with: result.mapError { $0 as any Error }) }
                    }
                case .queuedMutationFailed(let name, let args, let error):
                    announceQueueFailure(name, args, error)
                case .authChanged(let signedIn):
                    announceAuth(signedIn)
                case .deleteToken:
                    tokenStore.deleteToken()
                }
            }
            return deferred
        }
        for action in deferred { perform(action) }
    }

    /// Performs an action that awaits; never called with the lock held.
    private func perform(_ action: Action) {
        switch action {
        case .openTransport(let attempt):
            open(attempt: attempt)
        case .startTimer(let timer, let attempt, let delay):
            timers.start(timer, after: delay, sleep: environment.sleep) { [weak self] in
                self?.handle { $0.timerFired(timer, attempt: attempt) }
            }
        default:
            break
        }
    }

    /// Opens the transport of `attempt`.
    private func open(attempt: Int) {
        guard case .success(let endpoint) = endpoint, let transport = lock.withLock({ transports[attempt] }) else {
            handle { $0.transportOpenFailed(attempt: attempt) }
            return
        }
        let now = environment.now
        DriverTransport.open(
            transport, to: endpoint.socket, timeout: environment.connectTimeout,
            opened: { [weak self] in self?.handle { $0.transportOpened(attempt: attempt, now: now()) } },
            failed: { [weak self] in self?.handle { $0.transportOpenFailed(attempt: attempt) } },
            text: { [weak self] text in self?.handle { $0.messageReceived(attempt: attempt, text: text) } },
            closed: { [weak self] closure in
                guard let self else { return }
                lock.withLock { _ = transports.removeValue(forKey: attempt) }
                handle { $0.transportClosed(attempt: attempt, reason: "Closed \(closure.code.rawValue)") }
            })
    }
}
