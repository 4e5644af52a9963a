import BmobHTTP
import BmobIO
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

    func webSocketUnresponsive(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        let code = PusherCloseCode.pongNotReceived
        send(messages.error(code: code, message: "pong reply not received"))
        return (code.webSocketCloseCode, "pong reply not received")
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
        guard let socket else { return }
        for frame in payload.frames where frame.excluded != socketId {
            socket.send(encodedFrame: frame.bytes)
        }
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
        if channel.kind == .presence, let channelData {
            let member = try PusherChannelData(parsing: channelData)
            let (members, isNew) = try gateway.table.join(id, socket: socketId, userId: member.userId, userInfo: member.userInfo)
            presenceUserIds[channel.rawValue] = member.userId
            attach(channel, id)
            if isNew {
                gateway.publishInternal(applicationId: applicationId, channel: channel, excluding: socketId) { messages in
                    messages.memberAdded(channel: channel, userId: member.userId, userInfo: member.userInfo)
                }
                gateway.notify(applicationId, ["name": "member_added", "channel": .string(channel.rawValue), "user_id": .string(member.userId)])
            }
            send(messages.subscriptionSucceeded(channel: channel, members: members))
        } else {
            attach(channel, id)
            send(messages.subscriptionSucceeded(channel: channel))
            announceSubscriptionCount(channel, id)
        }
    }

    private func attach(_ channel: PusherChannelName, _ id: PusherChannelTable.ChannelID) {
        guard let socket else { return }
        channels[channel.rawValue] = channel
        if gateway.table.subscribed(id) {
            gateway.notify(applicationId, ["name": "channel_occupied", "channel": .string(channel.rawValue)])
        }
        gateway.hub.subscribe(self, to: gateway.key(applicationId, channel, prefix), on: socket.loop)
    }

    /// Tells a public or private channel's subscribers how many there are now, when the app asks for it (presence
    /// channels have their members instead).
    private func announceSubscriptionCount(_ channel: PusherChannelName, _ id: PusherChannelTable.ChannelID) {
        guard channel.kind != .presence, channel.serverToUserId == nil,
            gateway.credentials(of: applicationId)?.subscriptionCount == true
        else { return }
        let count = gateway.table.subscriptionCount(id)
        guard count > 0 else { return }
        gateway.publishInternal(applicationId: applicationId, channel: channel, excluding: nil) { messages in
            messages.subscriptionCount(channel: channel, count: count)
        }
    }

    /// Leaves `channel` (already taken out of ``channels``): the hub, the counts and, on presence, the members.
    private func leave(_ channel: PusherChannelName) {
        if let loop = socket?.loop { gateway.hub.unsubscribe(self, from: gateway.key(applicationId, channel, prefix), on: loop) }
        let id = PusherChannelTable.ChannelID(applicationId: applicationId, channel: channel.rawValue)
        if channel.kind == .presence, presenceUserIds.removeValue(forKey: channel.rawValue) != nil,
            let gone = gateway.table.leave(id, socket: socketId)
        {
            gateway.publishInternal(applicationId: applicationId, channel: channel, excluding: socketId) { messages in
                messages.memberRemoved(channel: channel, userId: gone)
            }
            gateway.notify(applicationId, ["name": "member_removed", "channel": .string(channel.rawValue), "user_id": .string(gone)])
        }
        if gateway.table.unsubscribed(id) {
            gateway.notify(applicationId, ["name": "channel_vacated", "channel": .string(channel.rawValue)])
        } else {
            announceSubscriptionCount(channel, id)
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
        guard channel.allowsClientEvents, channels[channel.rawValue] != nil else {
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
        gateway.publishInternal(applicationId: applicationId, channel: channel, excluding: socketId) { messages in
            messages.clientEvent(name, channel: channel, data: data, senderUserId: sender)
        }
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
