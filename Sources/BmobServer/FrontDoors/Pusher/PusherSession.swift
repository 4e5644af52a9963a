import BmobHTTP
import BmobIO
import BmobServerCodecs
import BmobWire

/// One Pusher-protocol connection (`/app/{key}`): announces its socket id, answers pings, subscribes to public,
/// private, presence and its own server-to-user channels (checking signatures against the exact strings it
/// received), relays client events to the other members, signs its user in, and forwards what the channel hub
/// delivers. Loop-confined (its socket's loop).
///
/// Rules:
/// 1. A refusal of the connection itself (unknown key, unsupported protocol, a bad signin) is a `{prefix}:error`
///    frame with its 40xx code, then a close with the same code.
/// 2. A refused subscription is a connection-level `{prefix}:error` with a `null` code, as Pusher sends it; the
///    connection stays open.
/// 3. An app with ``AppChannels/authorizedConnections`` closes a connection that has not signed in within
///    ``PusherGateway/signinTimeoutSeconds`` with 4009; one that answers nothing, not even the WebSocket ping sent
///    after its silence, gets 4201 (pong not received).
/// 4. Client events go only to private and presence channels the connection is subscribed to, when the app
///    allows them, at most ``PusherGateway/clientEventsPerSecond`` a second (beyond: 4301, then close), never back
///    to the sender; on presence channels they carry the sender's `user_id`.
final class PusherSession: WebSocketHandler, RealtimeListener {
    private let gateway: PusherGateway
    private let applicationId: String
    private let prefix: PusherEventPrefix
    /// The refusal to send once the WebSocket is open, when the connection may not stay.
    private let refusal: PusherProtocolError?
    let socketId = PusherSocketId.random()
    private var socket: WebSocketConnection?
    private var channels: [String: PusherChannelName] = [:]
    /// The user this connection signed in as.
    private var userId: String?
    /// The presence user id of each presence channel joined.
    private var presenceUserIds: [String: String] = [:]
    /// Presence channels whose join the cluster has not answered yet.
    private var joining: Set<String> = []
    /// Client events in the current second, and when it began (the loop's clock, nanoseconds).
    private var clientEventCount = 0
    private var clientEventWindow: UInt64 = 0
    /// The signin deadline's timer, while an app that wants authorized connections waits for the signin.
    private var signinTimer: TimerID?

    private var messages: PusherServerMessage { PusherServerMessage(prefix: prefix) }

    init(gateway: PusherGateway, applicationId: String, prefix: PusherEventPrefix, refusal: PusherProtocolError?) {
        self.gateway = gateway
        self.applicationId = applicationId
        self.prefix = prefix
        self.refusal = refusal
    }

    // MARK: - WebSocketHandler

    func webSocketOpened(_ socket: WebSocketConnection) {
        self.socket = socket
        if let refusal {
            fail(refusal)
            return
        }
        send(messages.connectionEstablished(socketId: socketId, activityTimeout: gateway.activityTimeoutSeconds))
        if gateway.credentials(of: applicationId)?.authorizedConnections == true {
            signinTimer = socket.loop.scheduleTimer(afterNanoseconds: UInt64(gateway.signinTimeoutSeconds) * 1_000_000_000) {
                [weak self] in
                self?.signinDeadlinePassed()
            }
        }
    }

    /// Rule 3: no signin in time.
    private func signinDeadlinePassed() {
        signinTimer = nil
        guard userId == nil else { return }
        fail(
            PusherProtocolError(
                .invalidSignature, "the connection did not sign in within \(gateway.signinTimeoutSeconds) seconds",
                code: .connectionUnauthorized, closesConnection: true))
    }

    /// Graceful shutdown: `{prefix}:error` 4200 and a close with it, so clients reconnect at once (to another node,
    /// or to this one once it is back) instead of backing off as they do after 1001.
    func webSocketShuttingDown(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        lastWords(.genericReconnectImmediately, "server shutting down; reconnect")
    }

    func webSocketUnresponsive(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        lastWords(.pongNotReceived, "pong reply not received")
    }

    /// Rule 1 when the WebSocket layer closes: sends the error frame and answers the close it then sends.
    private func lastWords(_ code: PusherCloseCode, _ message: String) -> (code: WebSocketCloseCode, reason: String) {
        send(messages.error(code: code, message: message))
        return (code.webSocketCloseCode, message)
    }

    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage) {
        guard case .text(let text) = message else {
            fail(PusherProtocolError(.invalidFrame, "frames are JSON text", code: .clientEventRejected, closesConnection: true))
            return
        }
        do {
            try handle(try PusherClientMessage(decoding: text, prefix: prefix, maximumBytes: gateway.maximumFrameBytes))
        } catch {
            if error.closesConnection { fail(error) } else { send(messages.error(error)) }
        }
    }

    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?) {
        if let signinTimer {
            socket.loop.cancelTimer(signinTimer)
            self.signinTimer = nil
        }
        for channel in channels.values { leave(channel) }
        channels = [:]
        if let userId {
            gateway.table.signedOut(.init(applicationId: applicationId, userId: userId), self)
        }
        self.socket = nil
    }

    // MARK: - RealtimeListener

    func realtimeEvent(_ payload: PusherDelivery) {
        guard let socket, let bytes = payload.bytes(for: socketId) else { return }
        socket.send(encodedFrame: bytes)
    }

    // MARK: - Messages

    private func handle(_ message: PusherClientMessage) throws(PusherProtocolError) {
        switch message {
        case .ping:
            send(messages.pong())
        case .pong:
            break
        case .subscribe(let channel, let auth, let channelData):
            try subscribe(channel, auth: auth, channelData: channelData)
        case .unsubscribe(let channel):
            guard channels.removeValue(forKey: channel.rawValue) != nil else { return }
            leave(channel)
        case .signin(let auth, let userData):
            try signIn(auth: auth, userData: userData)
        case .clientEvent(let name, let channel, let data):
            try relay(name, on: channel, data: data)
        }
    }

    private func subscribe(_ channel: PusherChannelName, auth: String?, channelData: String?) throws(PusherProtocolError) {
        guard channels[channel.rawValue] == nil else { return }
        guard channels.count < gateway.maximumChannelsPerConnection else {
            throw PusherProtocolError(.unsupportedChannel, "at most \(gateway.maximumChannelsPerConnection) channels per connection")
        }
        guard let credentials = gateway.credentials(of: applicationId) else {
            throw PusherProtocolError(.invalidSignature, "the app has no channel credentials", code: .applicationDisabled, closesConnection: true)
        }
        let id = PusherChannelTable.ChannelID(applicationId: applicationId, channel: channel.rawValue)
        switch channel.kind {
        case .private, .presence:
            try PusherSignatures.verifyChannelAuth(
                auth, key: credentials.key, secret: credentials.secret, socketId: socketId, channel: channel,
                channelData: channelData)
        default:
            if let owner = channel.serverToUserId {
                guard owner == userId else {
                    throw PusherProtocolError(.unsupportedChannel, "a server-to-user channel needs a signin as its user")
                }
            }
        }
        let member = try channel.kind == .presence ? channelData.map(PusherChannelData.init(parsing:)) : nil
        guard let socket else { return }
        channels[channel.rawValue] = channel
        if let member {
            presenceUserIds[channel.rawValue] = member.userId
            joining.insert(channel.rawValue)
            // On one node this completes at once; on several, once the cluster recorded the member (the members
            // listed in `subscription_succeeded` are the cluster's).
            let session = LoopBound(self, loop: socket.loop)
            gateway.bus.join(id, socket: socketId, member: member, countsSubscriptions: false, on: socket.loop) { result in
                session.value.joined(channel, as: member, result)
            }
        } else {
            gateway.hub.subscribe(self, to: gateway.key(applicationId, channel, prefix), on: socket.loop)
            send(messages.subscriptionSucceeded(channel: channel))
            let gateway = gateway, applicationId = applicationId
            let counts = gateway.countsSubscriptions(applicationId, channel)
            gateway.bus.join(id, socket: socketId, member: nil, countsSubscriptions: counts, on: socket.loop) { result in
                guard case .success(let outcome) = result else { return }
                gateway.announce(outcome, applicationId: applicationId, channel: channel, member: nil, excluding: nil)
            }
        }
    }

    /// A presence join's outcome: announced whatever became of the connection meanwhile (the cluster has the
    /// member until the leave queued behind the join), answered when the connection still wants the channel.
    private func joined(_ channel: PusherChannelName, as member: PusherChannelData, _ result: Result<PusherJoinOutcome, PusherProtocolError>) {
        let wanted = joining.remove(channel.rawValue) != nil
        switch result {
        case .success(let outcome):
            gateway.announce(outcome, applicationId: applicationId, channel: channel, member: member, excluding: socketId)
            guard wanted, let socket else { return }
            gateway.hub.subscribe(self, to: gateway.key(applicationId, channel, prefix), on: socket.loop)
            let members = outcome.members ?? PusherPresenceMembers()
            send(messages.subscriptionSucceeded(channel: channel, members: members))
        case .failure(let error):
            guard wanted else { return }
            channels[channel.rawValue] = nil
            presenceUserIds[channel.rawValue] = nil
            if error.closesConnection { fail(error) } else { send(messages.error(error)) }
        }
    }

    /// Leaves `channel` (already taken out of ``channels``): the hub, and the bus's counts and members.
    private func leave(_ channel: PusherChannelName) {
        if let loop = socket?.loop { gateway.hub.unsubscribe(self, from: gateway.key(applicationId, channel, prefix), on: loop) }
        joining.remove(channel.rawValue)
        let id = PusherChannelTable.ChannelID(applicationId: applicationId, channel: channel.rawValue)
        let presence = channel.kind == .presence && presenceUserIds.removeValue(forKey: channel.rawValue) != nil
        let gateway = gateway, socketId = socketId
        let counts = !presence && gateway.countsSubscriptions(applicationId, channel)
        gateway.bus.leave(id, socket: socketId, presence: presence, countsSubscriptions: counts) { outcome in
            gateway.announce(outcome, excluding: socketId)
        }
    }

    private func signIn(auth: String, userData: String) throws(PusherProtocolError) {
        guard let credentials = gateway.credentials(of: applicationId), let socket else { return }
        try PusherSignatures.verifyUserAuth(
            auth, key: credentials.key, secret: credentials.secret, socketId: socketId, userData: userData)
        let user = try PusherUserData(parsing: userData)
        if let previous = userId, previous != user.id {
            gateway.table.signedOut(.init(applicationId: applicationId, userId: previous), self)
        }
        userId = user.id
        gateway.table.signedIn(.init(applicationId: applicationId, userId: user.id), LoopBound(self, loop: socket.loop))
        send(messages.signinSuccess(userData: userData))
    }

    private func relay(_ name: String, on channel: PusherChannelName, data: JSONValue?) throws(PusherProtocolError) {
        guard gateway.credentials(of: applicationId)?.clientEvents == true else {
            throw PusherProtocolError(.unknownEvent, "client events are not enabled for this app", code: .clientEventRejected)
        }
        guard channel.allowsClientEvents, channels[channel.rawValue] != nil, !joining.contains(channel.rawValue) else {
            throw PusherProtocolError(.unsupportedChannel, "client events go only to private and presence channels the connection is subscribed to")
        }
        guard let loop = socket?.loop else { return }
        if loop.now &- clientEventWindow >= 1_000_000_000 {
            clientEventWindow = loop.now
            clientEventCount = 0
        }
        clientEventCount += 1
        guard clientEventCount <= gateway.clientEventsPerSecond else {
            throw PusherProtocolError(
                .unknownEvent, "more than \(gateway.clientEventsPerSecond) client events a second", code: .clientEventRejected,
                closesConnection: true)
        }
        let sender = presenceUserIds[channel.rawValue]
        gateway.publish(applicationId, [.clientEvent(channel: channel, name: name, data: data, senderUserId: sender, excluded: socketId)])
        var event: [String: JSONValue] = [
            "name": "client_event", "channel": .string(channel.rawValue), "event": .string(name),
            "data": .string(data.map { $0.stringValue ?? $0.jsonString } ?? ""), "socket_id": .string(socketId.description),
        ]
        if let sender { event["user_id"] = .string(sender) }
        gateway.notify(applicationId, .object(event))
    }

    // MARK: - Sending

    private func send(_ frame: PusherFrame) {
        socket?.send(text: frame.encoded)
    }

    /// Rule 1: the error frame, then the close with its code.
    private func fail(_ error: PusherProtocolError) {
        send(messages.error(error))
        let code = error.code ?? .serverError
        socket?.close(code: code.webSocketCloseCode, reason: String(error.message.prefix(100)))
    }

    /// Ends the connection from outside (the HTTP API's terminate): 4009, as Pusher's servers do.
    func terminate() {
        fail(PusherProtocolError(.invalidSignature, "connection terminated by the app", code: .connectionUnauthorized, closesConnection: true))
    }
}
