import BmobRealtime
import BmobWire
import Foundation

/// The driver: runs the state machine's actions. Sends, closes and the queueing of deliveries happen under the
/// lock, so the edge sees frames and handlers see events in the machine's order; what awaits (connecting,
/// authorizing, timers) runs in tasks started after the lock is released.
extension BirdRealtime {
    /// Feeds one event to the machine and performs the resulting actions.
    func handle(_ event: (inout BirdConnectionStateMachine) -> [Action]) {
        let deferred = lock.withLock { () -> [Action] in
            var deferred: [Action] = []
            for action in event(&machine) {
                switch action {
                case .send(let attempt, let text):
                    transports[attempt]?.send(.text(text))
                case .closeTransport(let attempt, let code):
                    transports.removeValue(forKey: attempt)?.close(code: WebSocketCloseCode(rawValue: code), reason: "")
                case .openTransport(let attempt):
                    transports[attempt] = environment.makeTransport()
                    deferred.append(action)
                case .cancelTimers:
                    timers.cancelAll()
                case .stateChanged(let previous, let current):
                    keepAlive = [.connecting, .connected, .unavailable].contains(current) ? self : nil
                    options.deliveryQueue.async { [self] in
                        for handler in lock.withLock({ stateHandlers }) { handler(previous, current) }
                    }
                case .reportError(let error):
                    options.deliveryQueue.async { [self] in
                        for handler in lock.withLock({ errorHandlers }) { handler(error) }
                    }
                case .setMyId(let channel, let memberId):
                    if let object = channelObjects[channel] {
                        options.deliveryQueue.async { object.setMyId(memberId) }
                    }
                case .deliver(let channel, let event, let data, let presence):
                    if let object = channelObjects[channel] {
                        options.deliveryQueue.async { object.deliver(event, data: data, presence: presence) }
                    }
                case .deliverToMember(let event, let data):
                    let member = self.member
                    options.deliveryQueue.async { member.handlers.call(event, data) { $0.map(BirdJSON.foundation) } }
                case .signinSucceeded(let signin):
                    for waiter in signinWaiters.values { waiter.resume(returning: signin) }
                    signinWaiters = [:]
                case .signinFailed(let error):
                    if signinWaiters.isEmpty {
                        options.deliveryQueue.async { [self] in
                            for handler in lock.withLock({ signinErrorHandlers }) { handler(error) }
                        }
                    }
                    for waiter in signinWaiters.values { waiter.resume(throwing: error) }
                    signinWaiters = [:]
                case .failPendingSignins(let error):
                    for waiter in signinWaiters.values { waiter.resume(throwing: error) }
                    signinWaiters = [:]
                case .startTimer, .authorizeChannel, .authorizeMember:
                    deferred.append(action)
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
        case .authorizeChannel(let channel, let connectionId):
            Task { [self] in
                do throws(BirdRealtimeError) {
                    let authorization = try await authorize(channel: channel, connectionId: connectionId)
                    handle { $0.channelAuthorized(channel, connectionId: connectionId, authorization: authorization) }
                } catch {
                    handle { $0.channelAuthorizationFailed(channel, connectionId: connectionId, error: error) }
                }
            }
        case .authorizeMember(let connectionId):
            Task { [self] in
                do throws(BirdRealtimeError) {
                    guard let endpoint = options.memberAuthEndpoint else {
                        throw BirdRealtimeError(message: "signin() needs a memberAuthEndpoint")
                    }
                    let (auth, userData) = try await BirdAuthRequests.member(
                        endpoint, headers: options.authHeaders, connectionId: connectionId, environment: environment)
                    handle { $0.memberAuthorized(connectionId: connectionId, auth: auth, userData: userData) }
                } catch {
                    handle { $0.memberAuthorizationFailed(connectionId: connectionId, error: error) }
                }
            }
        default:
            break
        }
    }

    /// The authorizer closure, else the auth endpoint.
    private func authorize(channel: String, connectionId: String) async throws(BirdRealtimeError) -> BirdAuthorization {
        if let authorizer = options.authorizer {
            do {
                return try await authorizer(connectionId, channel)
            } catch let error as BirdRealtimeError {
                throw error
            } catch {
                throw BirdRealtimeError(message: "the authorizer failed: \(error)")
            }
        }
        guard let endpoint = options.authEndpoint else {
            throw BirdRealtimeError(message: "private and presence channels need an authEndpoint or an authorizer")
        }
        return try await BirdAuthRequests.channel(
            endpoint, headers: options.authHeaders, connectionId: connectionId, channel: channel,
            environment: environment)
    }

    /// Opens the transport of `attempt`.
    private func open(attempt: Int) {
        guard case .success(let endpoint) = endpoint, let transport = lock.withLock({ transports[attempt] }) else {
            handle { $0.transportOpenFailed(attempt: attempt) }
            return
        }
        DriverTransport.open(
            transport, to: environment.edgeURL(endpoint.url), timeout: environment.connectTimeout,
            failed: { [weak self] in self?.handle { $0.transportOpenFailed(attempt: attempt) } },
            text: { [weak self] text in self?.handle { $0.frameReceived(attempt: attempt, text: text) } },
            closed: { [weak self] closure in
                guard let self else { return }
                lock.withLock { _ = transports.removeValue(forKey: attempt) }
                handle { $0.transportClosed(attempt: attempt, code: Int(closure.code.rawValue)) }
            })
    }
}
