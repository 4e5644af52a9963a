package import BmobWire

/// The socket.io 0.9 client of ``BmobEvent`` as a pure state machine: each event (a call from the app, a
/// handshake result, a WebSocket message, a timer) is a `mutating` method returning the actions the driver
/// performs. No I/O, no clock, no threads; the driver owns one machine behind its lock.
///
/// The life of a connection: ``connectRequested()`` → `startHandshake` (GET `/socket.io/1/`) →
/// ``handshakeSucceeded(attempt:handshake:appKey:)`` → `openWebSocket` → ``webSocketOpened(attempt:)`` →
/// the server's `1::` (`notifyConnected`) → its `client_send_data` (`notifyReady`, and every registered
/// subscription is sent once) → `server_pub` messages (`deliver`), heartbeats echoed. When an attempt
/// fails or a connection drops, and ``autoReconnect`` is on, the machine asks for a timer
/// (`scheduleReconnect`, 5 s by default) and starts a new attempt when it fires; subscriptions are sent again
/// once the new connection is ready. ``disconnectRequested()`` closes everything and finishes the streams,
/// keeping the subscriptions.
///
/// Every asynchronous result carries the number of the attempt it belongs to; results of an older attempt
/// are ignored, so a late callback cannot disturb a newer connection.
///
/// ## Topics
/// ### App events
/// - ``connectRequested()``
/// - ``disconnectRequested()``
/// - ``listen(_:)``
/// - ``cancel(_:)``
/// ### Connection events
/// - ``handshakeSucceeded(attempt:handshake:appKey:)``
/// - ``handshakeFailed(attempt:failure:)``
/// - ``webSocketOpened(attempt:)``
/// - ``webSocketOpenFailed(attempt:failure:)``
/// - ``textReceived(attempt:_:)``
/// - ``webSocketClosed(attempt:failure:)``
/// ### Timers
/// - ``reconnectTimerFired(attempt:)``
/// - ``heartbeatCheckDue(attempt:)``
package struct SocketIOClientStateMachine: Sendable {
    /// Where the connection stands.
    package enum State: Sendable, Hashable {
        /// Not connecting: never asked, or disconnected by the app, or given up without auto-reconnect.
        case idle
        /// Waiting for the socket.io handshake of this attempt.
        case handshaking(attempt: Int)
        /// Opening the WebSocket of this attempt.
        case opening(attempt: Int)
        /// The WebSocket is open; waiting for the server's `1::`.
        case open(attempt: Int)
        /// `1::` arrived; waiting for `client_send_data`.
        case connected(attempt: Int)
        /// Ready: subscriptions were sent and changes arrive.
        case ready(attempt: Int)
        /// This attempt failed; waiting for the reconnect timer.
        case waitingToReconnect(attempt: Int)
    }

    /// What the driver does next.
    package enum Action: Sendable, Hashable {
        /// GET the socket.io handshake, then report ``handshakeSucceeded(attempt:handshake:appKey:)`` or
        /// ``handshakeFailed(attempt:failure:)``.
        case startHandshake(attempt: Int)
        /// Open the WebSocket of session `sid`, then report ``webSocketOpened(attempt:)`` or
        /// ``webSocketOpenFailed(attempt:failure:)``; report its messages and its end.
        case openWebSocket(attempt: Int, sid: String)
        /// Send each packet as one WebSocket text message on the attempt's connection, in order.
        case send(attempt: Int, [SocketIOPacket])
        /// Close the attempt's WebSocket (or abandon it while it opens).
        case closeWebSocket(attempt: Int)
        /// Call ``reconnectTimerFired(attempt:)`` after `delay`.
        case scheduleReconnect(attempt: Int, delay: RealtimeDuration)
        /// Call ``heartbeatCheckDue(attempt:)`` every `interval` while the attempt lasts.
        case startHeartbeatWatchdog(attempt: Int, interval: RealtimeDuration)
        /// Tell the delegate the connection is up (`bmobEventDidConnect`).
        case notifyConnected
        /// Tell the delegate the server is ready (`bmobEventCanStartListen`).
        case notifyReady
        /// Hand a change to the streams and the delegate.
        case deliver(BmobEventMessage)
        /// Tell the delegate something failed (`bmobEvent(_:didFailWithError:)`).
        case notifyFailure(BmobEventFailure)
        /// Tell the delegate a connected connection ended (`bmobEventDidDisconnect(_:error:)`); `nil` when
        /// the app disconnected.
        case notifyDisconnected(BmobEventFailure?)
        /// End every event stream.
        case finishStreams
    }

    /// Where the connection stands.
    package private(set) var state = State.idle
    /// The registered subscriptions, in registration order, each once.
    package private(set) var subscriptions: [BmobEventSubscription] = []
    /// Whether a failed attempt or a dropped connection is retried after ``reconnectDelay``.
    package var autoReconnect = true
    /// The wait before each new attempt.
    package let reconnectDelay: RealtimeDuration

    private var attemptCounter = 0
    private var appKey = ""
    private var heartbeatTimeout: Int?
    private var receivedSinceCheck = false

    /// A machine with no subscriptions and no connection.
    ///
    /// - Parameter reconnectDelay: the wait before each new attempt; 5 seconds by default.
    package init(reconnectDelay: RealtimeDuration = .seconds(5)) {
        self.reconnectDelay = reconnectDelay
    }

    /// Whether the server's `1::` arrived on the current connection.
    package var isConnected: Bool {
        switch state {
        case .connected, .ready: true
        default: false
        }
    }

    /// The attempt whose WebSocket is opening or open, if any.
    private var connectionAttempt: Int? {
        switch state {
        case .opening(let attempt), .open(let attempt), .connected(let attempt), .ready(let attempt): attempt
        default: nil
        }
    }

    // MARK: - App events

    /// The app called `connect()`: starts an attempt unless one is under way.
    package mutating func connectRequested() -> [Action] {
        switch state {
        case .idle, .waitingToReconnect:
            return startAttempt()
        default:
            return []
        }
    }

    /// The app called `disconnect()`: sends `0::` and closes an open connection, cancels any attempt or
    /// reconnection, and finishes the streams. Subscriptions are kept for the next `connect()`.
    package mutating func disconnectRequested() -> [Action] {
        var actions: [Action] = []
        switch state {
        case .open(let attempt), .connected(let attempt), .ready(let attempt):
            actions = [.send(attempt: attempt, [.disconnect]), .closeWebSocket(attempt: attempt)]
        case .opening(let attempt):
            actions = [.closeWebSocket(attempt: attempt)]
        default:
            break
        }
        if isConnected { actions.append(.notifyDisconnected(nil)) }
        state = .idle
        actions.append(.finishStreams)
        return actions
    }

    /// The app registered a subscription: sent at once when ready, else when the server is ready.
    /// A subscription already registered is not sent again.
    ///
    /// - Parameter subscription: what to watch.
    package mutating func listen(_ subscription: BmobEventSubscription) -> [Action] {
        guard !subscriptions.contains(subscription) else { return [] }
        subscriptions.append(subscription)
        guard case .ready(let attempt) = state else { return [] }
        return [.send(attempt: attempt, [subscription.subscribePacket(appKey: appKey)])]
    }

    /// The app cancelled a subscription: the server is told at once when ready. Unknown ones are ignored.
    ///
    /// - Parameter subscription: what to stop watching.
    package mutating func cancel(_ subscription: BmobEventSubscription) -> [Action] {
        guard let index = subscriptions.firstIndex(of: subscription) else { return [] }
        subscriptions.remove(at: index)
        guard case .ready(let attempt) = state else { return [] }
        return [.send(attempt: attempt, [subscription.unsubscribePacket(appKey: appKey)])]
    }

    // MARK: - Connection events

    /// The handshake answered: opens the WebSocket when `websocket` is offered.
    ///
    /// - Parameters:
    ///   - attempt: the attempt it belongs to.
    ///   - handshake: the parsed answer.
    ///   - appKey: the Application ID the subscriptions are sent with.
    package mutating func handshakeSucceeded(attempt: Int, handshake: SocketIOHandshake, appKey: String) -> [Action] {
        guard state == .handshaking(attempt: attempt) else { return [] }
        guard handshake.supportsWebSocket else { return attemptFailed(attempt, .noWebSocketTransport) }
        self.appKey = appKey
        heartbeatTimeout = handshake.heartbeatTimeout
        state = .opening(attempt: attempt)
        return [.openWebSocket(attempt: attempt, sid: handshake.sid)]
    }

    /// The handshake failed.
    ///
    /// - Parameters:
    ///   - attempt: the attempt it belongs to.
    ///   - failure: why.
    package mutating func handshakeFailed(attempt: Int, failure: BmobEventFailure) -> [Action] {
        guard state == .handshaking(attempt: attempt) else { return [] }
        return attemptFailed(attempt, failure)
    }

    /// The WebSocket is open: the server's `1::` is next. Starts the heartbeat watchdog when the handshake
    /// gave a heartbeat timeout.
    ///
    /// - Parameter attempt: the attempt it belongs to.
    package mutating func webSocketOpened(attempt: Int) -> [Action] {
        guard state == .opening(attempt: attempt) else { return [] }
        state = .open(attempt: attempt)
        receivedSinceCheck = true
        guard let heartbeatTimeout, heartbeatTimeout > 0 else { return [] }
        return [.startHeartbeatWatchdog(attempt: attempt, interval: .seconds(heartbeatTimeout))]
    }

    /// The WebSocket could not be opened.
    ///
    /// - Parameters:
    ///   - attempt: the attempt it belongs to.
    ///   - failure: why.
    package mutating func webSocketOpenFailed(attempt: Int, failure: BmobEventFailure) -> [Action] {
        guard state == .opening(attempt: attempt) else { return [] }
        return attemptFailed(attempt, failure)
    }

    /// A WebSocket text message arrived: one socket.io packet, or a `\u{FFFD}` batch of them. A message
    /// that arrives before ``webSocketOpened(attempt:)`` was reported opens the connection first.
    ///
    /// - Parameters:
    ///   - attempt: the attempt it belongs to.
    ///   - text: the message.
    package mutating func textReceived(attempt: Int, _ text: String) -> [Action] {
        guard connectionAttempt == attempt else { return [] }
        var actions: [Action] = []
        if state == .opening(attempt: attempt) { actions += webSocketOpened(attempt: attempt) }
        receivedSinceCheck = true
        let packets: [SocketIOPacket]
        do {
            packets = try SocketIOFrameBatch.decode(text)
        } catch {
            return actions + [.notifyFailure(.invalidPacket(error.description))]
        }
        for packet in packets where connectionAttempt == attempt {
            actions += packetReceived(packet, attempt: attempt)
        }
        return actions
    }

    /// The WebSocket closed or dropped.
    ///
    /// - Parameters:
    ///   - attempt: the attempt it belongs to.
    ///   - failure: how it ended.
    package mutating func webSocketClosed(attempt: Int, failure: BmobEventFailure) -> [Action] {
        guard connectionAttempt == attempt else { return [] }
        return attemptFailed(attempt, failure)
    }

    // MARK: - Timers

    /// The reconnect timer of a failed attempt fired: starts the next attempt, or, when ``autoReconnect``
    /// was turned off meanwhile, stops and finishes the streams.
    ///
    /// - Parameter attempt: the failed attempt the timer was scheduled for.
    package mutating func reconnectTimerFired(attempt: Int) -> [Action] {
        guard state == .waitingToReconnect(attempt: attempt) else { return [] }
        guard autoReconnect else {
            state = .idle
            return [.finishStreams]
        }
        return startAttempt()
    }

    /// The heartbeat watchdog's interval passed: a connection that received nothing since the last check
    /// is considered dead, closed, and (with ``autoReconnect``) replaced.
    ///
    /// - Parameter attempt: the attempt the watchdog belongs to.
    package mutating func heartbeatCheckDue(attempt: Int) -> [Action] {
        guard let current = connectionAttempt, current == attempt, state != .opening(attempt: attempt) else {
            return []
        }
        if receivedSinceCheck {
            receivedSinceCheck = false
            return []
        }
        return [.closeWebSocket(attempt: attempt)] + attemptFailed(attempt, .heartbeatTimeout)
    }

    // MARK: - Private

    private mutating func startAttempt() -> [Action] {
        attemptCounter += 1
        state = .handshaking(attempt: attemptCounter)
        return [.startHandshake(attempt: attemptCounter)]
    }

    /// The attempt is over: report it, then wait to reconnect or stop.
    private mutating func attemptFailed(_ attempt: Int, _ failure: BmobEventFailure) -> [Action] {
        var actions: [Action] = [isConnected ? .notifyDisconnected(failure) : .notifyFailure(failure)]
        if autoReconnect {
            state = .waitingToReconnect(attempt: attempt)
            actions.append(.scheduleReconnect(attempt: attempt, delay: reconnectDelay))
        } else {
            state = .idle
            actions.append(.finishStreams)
        }
        return actions
    }

    private mutating func packetReceived(_ packet: SocketIOPacket, attempt: Int) -> [Action] {
        guard packet.endpoint.isEmpty else { return [] }
        switch packet.payload {
        case .connect:
            guard state == .open(attempt: attempt) else { return [] }
            state = .connected(attempt: attempt)
            return [.notifyConnected]
        case .heartbeat:
            return [.send(attempt: attempt, [.heartbeat])]
        case .event(let name, let args):
            return eventReceived(name: name, args: args, attempt: attempt)
        case .disconnect:
            return [.closeWebSocket(attempt: attempt)] + attemptFailed(attempt, .serverDisconnected)
        case .error(let reason, let advice):
            // socket.io 0.9 advice 0 (or its name) is "reconnect".
            guard advice == "0" || advice == "reconnect" else { return [.notifyFailure(.serverError(reason))] }
            return [.closeWebSocket(attempt: attempt)] + attemptFailed(attempt, .serverError(reason))
        case .message, .json, .ack, .noop:
            return []
        }
    }

    private mutating func eventReceived(name: String, args: [JSONValue], attempt: Int) -> [Action] {
        switch BmobRealtimeEventName(rawValue: name) {
        case .clientSendData?:
            var actions: [Action] = []
            switch state {
            case .open:
                // Lenient: a server that skips `1::` is connected by its ready event.
                state = .connected(attempt: attempt)
                actions.append(.notifyConnected)
            case .connected:
                break
            default:
                return []
            }
            state = .ready(attempt: attempt)
            actions.append(.notifyReady)
            if !subscriptions.isEmpty {
                actions.append(.send(attempt: attempt, subscriptions.map { $0.subscribePacket(appKey: appKey) }))
            }
            return actions
        case .serverPublish?:
            let publication: BmobRealtimePublication
            do {
                publication = try BmobRealtimePublication(eventName: name, args: args)
            } catch {
                return [.notifyFailure(.invalidPacket(error.description))]
            }
            guard subscriptions.contains(where: { $0.matches(publication) }) else { return [] }
            return [.deliver(BmobEventMessage(publication: publication))]
        default:
            return []
        }
    }
}
