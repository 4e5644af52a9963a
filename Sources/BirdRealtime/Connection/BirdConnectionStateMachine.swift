package import BmobRealtime
package import BmobWire

/// The client's protocol logic as a pure state machine (postgres-nio style): each event is a `mutating` method
/// returning the ``Action``s the driver (``BirdRealtime``) performs. No I/O, no clocks, no threads: randomness
/// comes in through the `jitter` source and time through the timer events.
///
/// Rules it implements (`pusher.md` §2–§6, §11):
/// 1. Connected means `bird:connection_established` arrived; then every channel is subscribed again, private
///    and presence ones with a *fresh* authorization for the new connection id, and a wanted signin is redone.
/// 2. A close with 4000–4099 is final: state ``State/failed``, the code reported once (with the message of the
///    `bird:error` that announced it). 4200–4299 reconnect at once when the connection had been established (else
///    they back off, so a server that refuses at once cannot make the client spin); every other close backs off
///    with ``BirdReconnectBackoff``.
/// 3. After `activity_timeout` seconds without a frame the client sends `bird:ping`; when nothing arrives within
///    ``pongTimeout`` the connection counts as lost and is replaced at once.
/// 4. Events of a connection attempt that is no longer current are ignored.
package struct BirdConnectionStateMachine: Sendable {
    /// Where the connection is, with what each state needs to know.
    package enum State: Sendable, Hashable {
        /// Made; nothing opened yet.
        case initialized
        /// The current attempt's transport is opening, or waiting for `connection_established`.
        case connecting(Opening)
        /// `connection_established` arrived.
        case connected(Connection)
        /// Waiting out the backoff before the next attempt.
        case unavailable
        /// Refused (4000–4099) or misconfigured; nothing happens until the app connects again.
        case failed
        /// The app disconnected.
        case disconnected
    }

    /// An attempt being opened.
    package struct Opening: Sendable, Hashable {
        /// A refusal announced by a `bird:error` before the close that carries its code.
        var refusal: Refusal?
    }

    /// An established connection.
    package struct Connection: Sendable, Hashable {
        /// The connection id (`socket_id`).
        let id: String
        /// Silence after which the client pings.
        let activityTimeout: RealtimeDuration
        /// Whether a frame arrived since the last activity check.
        var heard = false
        /// Whether a ping waits for an answer.
        var pinged = false
        /// A refusal announced by a `bird:error` before the close that carries its code.
        var refusal: Refusal?
        /// The signin's progress on this connection.
        var member = MemberStatus.none
    }

    /// The code and message of a `bird:error` announcing a refusal.
    package struct Refusal: Sendable, Hashable {
        var code: Int
        var message: String
    }

    /// The signin's progress on a connection.
    package enum MemberStatus: Sendable, Hashable {
        /// Not asked for, or failed.
        case none
        /// Waiting for the member endpoint.
        case authorizing
        /// `bird:signin` sent.
        case signingIn
        /// `signin_success` received.
        case signedIn(BirdSignin)
    }

    /// The timers the driver runs for the machine.
    package enum Timer: Sendable, Hashable {
        /// The backoff before the next attempt.
        case reconnect
        /// The check for silence on a connected connection.
        case activity
        /// The wait for any frame after a ping.
        case pong
    }

    /// A change to a presence channel's member list.
    package enum PresenceChange: Sendable, Hashable {
        /// The whole list, from `subscription_succeeded`: user id → user info (`null` when none).
        case snapshot([String: JSONValue])
        /// A member joined.
        case added(String, JSONValue?)
        /// A member left.
        case removed(String)
    }

    /// What the driver does.
    package enum Action: Sendable, Hashable {
        /// Make a transport for `attempt` and open it to the endpoint.
        case openTransport(attempt: Int)
        /// Close the transport of `attempt` (its closure event will be ignored).
        case closeTransport(attempt: Int, code: UInt16)
        /// Send a text frame on the transport of `attempt`.
        case send(attempt: Int, text: String)
        /// Start (or restart) a timer; fire it back with the attempt.
        case startTimer(Timer, attempt: Int, after: RealtimeDuration)
        /// Cancel every timer.
        case cancelTimers
        /// Ask the authorizer or auth endpoint to sign `channel` for `connectionId`.
        case authorizeChannel(channel: String, connectionId: String)
        /// Ask the member endpoint to sign a signin for `connectionId`.
        case authorizeMember(connectionId: String)
        /// Tell the state handlers.
        case stateChanged(previous: BirdConnectionState, current: BirdConnectionState)
        /// Tell the error handlers.
        case reportError(BirdRealtimeError)
        /// Set a presence channel's own member id (from the authorization's member data).
        case setMyId(channel: String, memberId: String?)
        /// Deliver an event to a channel's handlers, after applying `presence` to its member list.
        case deliver(channel: String, event: String, data: JSONValue?, presence: PresenceChange?)
        /// Deliver an event addressed to the signed-in member (`#server-to-user-{id}`).
        case deliverToMember(event: String, data: JSONValue?)
        /// The signin completed: resume waiting ``BirdRealtime/signin()`` calls.
        case signinSucceeded(BirdSignin)
        /// The signin failed: throw to waiting calls, or tell the signin error handlers when none waits.
        case signinFailed(BirdRealtimeError)
        /// The connection ended for good: throw to waiting ``BirdRealtime/signin()`` calls, if any.
        case failPendingSignins(BirdRealtimeError)
    }

    /// A subscribed (or wanted) channel.
    private struct Channel: Sendable {
        enum Status: Sendable, Equatable {
            /// Not sent on the current connection (or no connection).
            case idle
            /// Waiting for the authorization for this connection id.
            case authorizing(String)
            /// `bird:subscribe` sent.
            case subscribing
            /// `subscription_succeeded` received.
            case subscribed
            /// Authorization failed on this connection; retried on the next.
            case failed
        }

        let name: PusherChannelName
        var status: Status = .idle
    }

    /// The largest frame accepted from the edge (a presence list of 100 members of 1 KiB fits easily).
    package static let maximumFrameBytes = 1 << 20
    /// How long to wait for any frame after a ping.
    package static let pongTimeout = RealtimeDuration.seconds(30)
    /// The longest silence before pinging, whatever the edge announces.
    package static let maximumActivityTimeout = 120

    private let prefix = PusherEventPrefix.bird
    private let backoff: BirdReconnectBackoff
    /// A random number in `[0, 1]` for each backoff.
    private let jitter: @Sendable () -> Double

    /// Where the connection is.
    package private(set) var state = State.initialized
    /// The number of the current attempt; events of other attempts are ignored.
    package private(set) var attempt = 0
    /// Failed attempts in a row since the last established connection.
    package private(set) var failures = 0
    private var channels: [String: Channel] = [:]
    /// Channel names in subscription order.
    private var order: [String] = []
    /// Whether the app asked to sign in; kept across reconnects.
    private var memberWanted = false

    /// A machine in ``State/initialized``.
    ///
    /// - Parameters:
    ///   - backoff: the reconnection backoff.
    ///   - jitter: a random number in `[0, 1]` for each backoff.
    package init(backoff: BirdReconnectBackoff = BirdReconnectBackoff(minimum: .seconds(1)), jitter: @escaping @Sendable () -> Double) {
        self.backoff = backoff
        self.jitter = jitter
    }

    /// The state as apps see it.
    package var connectionState: BirdConnectionState {
        switch state {
        case .initialized: .initialized
        case .connecting: .connecting
        case .connected: .connected
        case .unavailable: .unavailable
        case .failed: .failed
        case .disconnected: .disconnected
        }
    }

    /// The connection id (`socket_id`) while connected.
    package var connectionId: String? {
        if case .connected(let connection) = state { connection.id } else { nil }
    }

    /// The signed-in member on the current connection.
    package var signedIn: BirdSignin? {
        if case .connected(let connection) = state, case .signedIn(let signin) = connection.member {
            signin
        } else {
            nil
        }
    }

    /// Whether `channel` is subscribed on the current connection.
    ///
    /// - Parameter channel: the channel name.
    /// - Returns: `true` once its `subscription_succeeded` arrived.
    package func isSubscribed(_ channel: String) -> Bool { channels[channel]?.status == .subscribed }

    // MARK: - App calls

    /// The app connects (also on creation).
    package mutating func connect() -> [Action] {
        switch state {
        case .initialized, .disconnected, .failed:
            failures = 0
            return startAttempt()
        case .connecting, .connected, .unavailable:
            return []
        }
    }

    /// The options cannot make an edge URL: stop and report.
    package mutating func configurationFailed(_ error: BirdRealtimeError) -> [Action] {
        transition(to: .failed) + [.reportError(error), .failPendingSignins(error)]
    }

    /// The app disconnects: close, stop reconnecting, keep the subscriptions for a later ``connect()``.
    package mutating func disconnect() -> [Action] {
        switch state {
        case .initialized, .disconnected:
            return []
        case .failed:
            return transition(to: .disconnected)
        case .connecting, .connected, .unavailable:
            var actions: [Action] = [.cancelTimers]
            if state != .unavailable { actions.append(.closeTransport(attempt: attempt, code: 1000)) }
            resetChannels()
            actions += transition(to: .disconnected)
            actions.append(.failPendingSignins(BirdRealtimeError(message: "disconnected")))
            return actions
        }
    }

    /// The app subscribes to a channel (valid name; checked by the caller).
    package mutating func subscribe(_ name: PusherChannelName) -> [Action] {
        guard channels[name.rawValue] == nil else { return [] }
        channels[name.rawValue] = Channel(name: name)
        order.append(name.rawValue)
        guard let connectionId else { return [] }
        return subscribeActions(name.rawValue, connectionId: connectionId)
    }

    /// The app unsubscribes.
    package mutating func unsubscribe(_ name: String) -> [Action] {
        guard let channel = channels.removeValue(forKey: name) else { return [] }
        order.removeAll { $0 == name }
        guard connectionId != nil, channel.status == .subscribing || channel.status == .subscribed else { return [] }
        return [send(protocolEvent: "unsubscribe", data: ["channel": .string(name)])]
    }

    /// The app calls ``BirdRealtime/signin()``.
    package mutating func signin() -> [Action] {
        memberWanted = true
        switch state {
        case .failed, .disconnected:
            return [.failPendingSignins(BirdRealtimeError(message: "not connected; call connect() first"))]
        case .initialized, .connecting, .unavailable:
            return []
        case .connected(var connection):
            switch connection.member {
            case .signedIn(let signin):
                return [.signinSucceeded(signin)]
            case .authorizing, .signingIn:
                return []
            case .none:
                connection.member = .authorizing
                state = .connected(connection)
                return [.authorizeMember(connectionId: connection.id)]
            }
        }
    }

    /// Builds the frame of a client event, or says why it cannot be sent.
    ///
    /// - Parameters:
    ///   - event: the event name, `client-…`.
    ///   - channel: the channel.
    ///   - data: the data.
    /// - Returns: the send action.
    /// - Throws: ``BirdRealtimeError`` when the name does not start with `client-`, the channel is not a
    ///   subscribed private or presence channel, or the frame is over 10 KiB.
    package func clientEvent(_ event: String, channel: String, data: JSONValue) throws(BirdRealtimeError) -> Action {
        guard event.hasPrefix(PusherEventName.clientPrefix), event.utf16.count <= PusherFrame.maximumEventNameLength
        else {
            throw BirdRealtimeError(message: "client event names start with client- and have at most 200 characters")
        }
        guard let entry = channels[channel], entry.name.allowsClientEvents else {
            throw BirdRealtimeError(message: "client events can only be sent on private- and presence- channels")
        }
        guard connectionId != nil, entry.status == .subscribed else {
            throw BirdRealtimeError(message: "the channel is not subscribed yet")
        }
        let text = PusherFrame(event: event, channel: entry.name, data: data).encoded
        guard text.utf8.count <= PusherFrame.defaultMaximumBytes else {
            throw BirdRealtimeError(message: "a client event has at most \(PusherFrame.defaultMaximumBytes) bytes")
        }
        return .send(attempt: attempt, text: text)
    }

    // MARK: - Transport events

    /// The transport of `attempt` could not be opened.
    package mutating func transportOpenFailed(attempt: Int) -> [Action] {
        guard attempt == self.attempt, case .connecting = state else { return [] }
        resetChannels()
        return backOff()
    }

    /// The transport of `attempt` closed with `code` (1006 when it dropped).
    package mutating func transportClosed(attempt: Int, code: Int) -> [Action] {
        guard attempt == self.attempt else { return [] }
        let wasEstablished: Bool
        let refusal: Refusal?
        switch state {
        case .connecting(let opening):
            (wasEstablished, refusal) = (false, opening.refusal)
        case .connected(let connection):
            (wasEstablished, refusal) = (true, connection.refusal)
        case .initialized, .unavailable, .failed, .disconnected:
            return []
        }
        resetChannels()
        var actions: [Action] = [.cancelTimers]
        let closeCode = PusherCloseCode(rawValue: UInt16(clamping: max(0, code)))
        switch closeCode.action {
        case .refused:
            let message = refusal?.code == code ? refusal?.message : nil
            let error = BirdRealtimeError(code: code, message: message ?? closeCode.meaning)
            actions += transition(to: .failed)
            actions.append(.reportError(error))
            actions.append(.failPendingSignins(error))
        case .immediate where wasEstablished:
            failures = 0
            actions += startAttempt()
        default:
            actions += backOff()
        }
        return actions
    }

    /// A text frame arrived on the transport of `attempt`.
    package mutating func frameReceived(attempt: Int, text: String) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch state {
        case .connecting:
            break
        case .connected(var connection):
            connection.heard = true
            connection.pinged = false
            state = .connected(connection)
        case .initialized, .unavailable, .failed, .disconnected:
            return []
        }
        // A frame that does not decode is ignored: one bad frame must not take the connection down.
        guard let frame = try? PusherFrame(decoding: text, maximumBytes: Self.maximumFrameBytes) else { return [] }
        switch prefix.classify(frame.event) {
        case .protocolEvent("connection_established"):
            return connectionEstablished(frame)
        case .protocolEvent("error"):
            return errorReceived(frame)
        case .protocolEvent("ping"):
            return [.send(attempt: attempt, text: PusherServerMessage(prefix: prefix).pong().encoded)]
        case .protocolEvent("signin_success"):
            return signinSucceeded(frame)
        case .protocolEvent:
            return []
        case .internalEvent(let name):
            return internalEvent(name, frame)
        case .clientEvent(let name), .applicationEvent(let name):
            return channelEvent(name, frame)
        }
    }

    // MARK: - Timers

    /// A timer of `attempt` fired.
    package mutating func timerFired(_ timer: Timer, attempt: Int) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch (timer, state) {
        case (.reconnect, .unavailable):
            return startAttempt()
        case (.activity, .connected(var connection)):
            if connection.heard {
                connection.heard = false
                state = .connected(connection)
                return [.startTimer(.activity, attempt: attempt, after: connection.activityTimeout)]
            }
            connection.pinged = true
            state = .connected(connection)
            return [
                send(protocolEvent: "ping", data: .object([:])),
                .startTimer(.pong, attempt: attempt, after: Self.pongTimeout),
            ]
        case (.pong, .connected(var connection)):
            guard connection.pinged else {
                // Something arrived after the ping: watch for silence again.
                connection.heard = false
                state = .connected(connection)
                return [.startTimer(.activity, attempt: attempt, after: connection.activityTimeout)]
            }
            // Silent after a ping: the connection is gone. Replace it at once (as a 4201 would).
            resetChannels()
            return [.cancelTimers, .closeTransport(attempt: attempt, code: 4201)] + startAttempt()
        default:
            return []
        }
    }

    // MARK: - Authorization results

    /// The authorizer signed `channel` for `connectionId`.
    package mutating func channelAuthorized(
        _ channel: String, connectionId: String, authorization: BirdAuthorization
    ) -> [Action] {
        guard connectionId == self.connectionId, var entry = channels[channel],
            entry.status == .authorizing(connectionId)
        else { return [] }
        if entry.name.kind == .presence && authorization.memberData == nil {
            return channelAuthorizationFailed(
                channel, connectionId: connectionId,
                error: BirdRealtimeError(message: "a presence channel's authorization needs member_data"))
        }
        entry.status = .subscribing
        channels[channel] = entry
        var data: [String: JSONValue] = ["channel": .string(channel), "auth": .string(authorization.auth)]
        var actions: [Action] = []
        if entry.name.kind == .presence, let memberData = authorization.memberData {
            data["channel_data"] = .string(memberData)
            let myId = (try? PusherChannelData(parsing: memberData))?.userId
            actions.append(.setMyId(channel: channel, memberId: myId))
        }
        actions.append(send(protocolEvent: "subscribe", data: .object(data)))
        return actions
    }

    /// The authorizer failed for `channel`: the channel gets `bird:subscription_error`.
    package mutating func channelAuthorizationFailed(
        _ channel: String, connectionId: String, error: BirdRealtimeError
    ) -> [Action] {
        guard connectionId == self.connectionId, var entry = channels[channel],
            entry.status == .authorizing(connectionId) || entry.status == .subscribing
        else { return [] }
        entry.status = .failed
        channels[channel] = entry
        var data: [String: JSONValue] = ["type": "AuthError", "error": .string(error.message)]
        if let status = error.status { data["status"] = .int(Int64(status)) }
        return [
            .deliver(channel: channel, event: BirdProtocol.Event.subscriptionError, data: .object(data), presence: nil)
        ]
    }

    /// The member endpoint signed a signin for `connectionId`.
    package mutating func memberAuthorized(connectionId: String, auth: String, userData: String) -> [Action] {
        guard case .connected(var connection) = state, connection.id == connectionId, connection.member == .authorizing
        else { return [] }
        connection.member = .signingIn
        state = .connected(connection)
        return [send(protocolEvent: "signin", data: ["auth": .string(auth), "user_data": .string(userData)])]
    }

    /// The member endpoint failed for `connectionId`.
    package mutating func memberAuthorizationFailed(connectionId: String, error: BirdRealtimeError) -> [Action] {
        guard case .connected(var connection) = state, connection.id == connectionId, connection.member == .authorizing
        else { return [] }
        connection.member = .none
        state = .connected(connection)
        return [.signinFailed(error)]
    }

    // MARK: - Frames

    private mutating func connectionEstablished(_ frame: PusherFrame) -> [Action] {
        // Once connected, a repeated handshake is ignored.
        guard case .connecting = state else { return [] }
        guard let data = frame.dataObject, case .string(let id)? = data["socket_id"], PusherSocketId.isValid(id) else {
            // Not the protocol: drop this connection and back off.
            resetChannels()
            return [.cancelTimers, .closeTransport(attempt: attempt, code: 1002)] + backOff()
        }
        let announced = data["activity_timeout"]?.int64Value.map { Int(clamping: $0) } ?? Self.maximumActivityTimeout
        var connection = Connection(
            id: id, activityTimeout: .seconds(min(Self.maximumActivityTimeout, max(1, announced))))
        failures = 0
        var actions = transition(to: .connected(connection))
        actions.append(.startTimer(.activity, attempt: attempt, after: connection.activityTimeout))
        for name in order { actions += subscribeActions(name, connectionId: id) }
        if memberWanted {
            connection.member = .authorizing
            state = .connected(connection)
            actions.append(.authorizeMember(connectionId: id))
        }
        return actions
    }

    private mutating func errorReceived(_ frame: PusherFrame) -> [Action] {
        let data = frame.dataObject ?? [:]
        let code = data["code"]?.int64Value.map { Int(clamping: $0) }
        let message = data["message"]?.stringValue ?? "error"
        guard let code, PusherCloseCode(rawValue: UInt16(clamping: max(0, code))).action == .refused else {
            return [.reportError(BirdRealtimeError(code: code, message: message))]
        }
        // The close that follows is final; report the code once, then.
        let refusal = Refusal(code: code, message: message)
        switch state {
        case .connecting(var opening):
            opening.refusal = refusal
            state = .connecting(opening)
        case .connected(var connection):
            connection.refusal = refusal
            state = .connected(connection)
        default:
            break
        }
        return []
    }

    private mutating func signinSucceeded(_ frame: PusherFrame) -> [Action] {
        guard case .connected(var connection) = state, connection.member == .signingIn,
            case .string(let userData)? = frame.dataObject?["user_data"],
            let parsed = try? PusherUserData(parsing: userData),
            let channel = try? PusherChannelName.serverToUser(parsed.id)
        else { return [] }
        let signin = BirdSignin(memberId: parsed.id, memberData: userData)
        connection.member = .signedIn(signin)
        state = .connected(connection)
        return [
            send(protocolEvent: "subscribe", data: ["channel": .string(channel.rawValue), "auth": ""]),
            .signinSucceeded(signin),
        ]
    }

    private mutating func internalEvent(_ name: String, _ frame: PusherFrame) -> [Action] {
        guard let channel = frame.channel, var entry = channels[channel.rawValue] else { return [] }
        let data = frame.dataObject
        switch name {
        case "subscription_succeeded":
            guard entry.status == .subscribing else { return [] }
            entry.status = .subscribed
            channels[channel.rawValue] = entry
            guard channel.kind == .presence else {
                return [
                    .deliver(
                        channel: channel.rawValue, event: BirdProtocol.Event.subscriptionSucceeded,
                        data: frame.data.flatMap(Self.parsed), presence: nil)
                ]
            }
            let hash = data?["presence"]?["hash"]?.objectValue ?? [:]
            return [
                .deliver(
                    channel: channel.rawValue, event: BirdProtocol.Event.subscriptionSucceeded, data: .object(hash),
                    presence: .snapshot(hash))
            ]
        case "member_added":
            guard entry.status == .subscribed, channel.kind == .presence, let data,
                let id = Self.userId(data["user_id"])
            else { return [] }
            return [
                .deliver(
                    channel: channel.rawValue, event: BirdProtocol.Event.memberAdded, data: .object(data),
                    presence: .added(id, data["user_info"]))
            ]
        case "member_removed":
            guard entry.status == .subscribed, channel.kind == .presence, let data,
                let id = Self.userId(data["user_id"])
            else { return [] }
            return [
                .deliver(
                    channel: channel.rawValue, event: BirdProtocol.Event.memberRemoved, data: .object(data),
                    presence: .removed(id))
            ]
        case "subscription_count":
            return [
                .deliver(
                    channel: channel.rawValue, event: BirdProtocol.Event.subscriptionCount,
                    data: frame.data.flatMap(Self.parsed), presence: nil)
            ]
        default:
            return []
        }
    }

    private func channelEvent(_ name: String, _ frame: PusherFrame) -> [Action] {
        guard let channel = frame.channel else { return [] }
        if channel.kind == .serverToUser {
            guard let signedIn, channel.serverToUserId == signedIn.memberId else { return [] }
            return [.deliverToMember(event: name, data: frame.data.flatMap(Self.parsed))]
        }
        guard channels[channel.rawValue]?.status == .subscribed else { return [] }
        return [.deliver(channel: channel.rawValue, event: name, data: frame.data.flatMap(Self.parsed), presence: nil)]
    }

    // MARK: - Helpers

    /// Event data as apps see it: a string holding JSON is parsed (as pusher-js does); any other string is kept.
    private static func parsed(_ data: JSONValue) -> JSONValue {
        guard case .string(let text) = data, let value = try? JSONParser.parse(text) else { return data }
        return value
    }

    private static func userId(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let id)?: id
        case .int(let id)?: String(id)
        default: nil
        }
    }

    /// A `bird:{event}` frame on the current attempt.
    private func send(protocolEvent event: String, data: JSONValue) -> Action {
        .send(attempt: attempt, text: PusherFrame(event: prefix.protocolEvent(event), data: data).encoded)
    }

    private mutating func subscribeActions(_ name: String, connectionId: String) -> [Action] {
        guard var entry = channels[name] else { return [] }
        if entry.name.requiresAuthorization {
            entry.status = .authorizing(connectionId)
            channels[name] = entry
            return [.authorizeChannel(channel: name, connectionId: connectionId)]
        }
        entry.status = .subscribing
        channels[name] = entry
        return [send(protocolEvent: "subscribe", data: ["channel": .string(name), "auth": ""])]
    }

    private mutating func startAttempt() -> [Action] {
        attempt += 1
        return transition(to: .connecting(Opening())) + [.openTransport(attempt: attempt)]
    }

    private mutating func backOff() -> [Action] {
        failures += 1
        let delay = backoff.delay(afterFailures: failures, unit: jitter())
        return transition(to: .unavailable) + [.startTimer(.reconnect, attempt: attempt, after: delay)]
    }

    /// Marks every channel as not sent on any connection.
    private mutating func resetChannels() {
        for name in order { channels[name]?.status = .idle }
    }

    /// Moves to `next`, reporting the change of the public state when there is one.
    private mutating func transition(to next: State) -> [Action] {
        let previous = connectionState
        state = next
        let current = connectionState
        return previous == current ? [] : [.stateChanged(previous: previous, current: current)]
    }
}
