import BmobHTTP
import BmobIO
import BmobWire

/// One socket.io 0.9 client on a WebSocket: sends `1::` and the ready event, keeps heartbeats going, turns
/// `client_sub` / `client_unsub` into subscriptions in the door's ``RealtimeHub`` (and interest in the app's
/// journal feed), and forwards events. Loop-confined (its socket's loop), and it reads time from that loop.
///
/// Subscriptions are anonymous (the protocol carries no session token), so events are filtered for public
/// read access by the door's ``SocketIOPublisher``. Malformed packets and refused subscriptions are answered
/// with a socket.io error packet (`7:::reason`) and leave the connection open; binary messages close it with
/// 1003.
final class SocketIOSession: WebSocketHandler, RealtimeListener {
    private let gateway: SocketIOGateway
    /// The connection. The connection also owns its handler; the cycle ends when the connection closes (it
    /// drops its handler, and ``webSocketClosed(_:code:)`` drops this). Not weak: a weak load on every
    /// delivery takes Swift's slow reference-counting path, a measurable share of fan-out.
    private var socket: WebSocketConnection?
    private var subscriptions: Set<SocketIOTopic> = []
    /// Subscriptions per app; the session counts against an app's bound (``SocketIOAppSessions``) while it
    /// holds any there.
    private var subscriptionsPerApp: [String: Int] = [:]
    /// When the client last sent a packet (the loop's ``EventLoop/now``).
    private var lastHeard: UInt64 = 0
    /// The heartbeat timer; its callback holds the session strongly (weak references would put every
    /// delivery's retain of the session on Swift's slow path), so it is cancelled when the socket closes.
    private var heartbeatTimer: TimerID?

    private static let connectFrame = textFrame(SocketIOPacket.connect.encoded)
    private static let readyFrame = textFrame(BmobRealtimeEventName.readyPacket.encoded)
    private static let heartbeatFrame = textFrame(SocketIOPacket.heartbeat.encoded)

    init(gateway: SocketIOGateway) {
        self.gateway = gateway
    }

    private static func textFrame(_ text: String) -> [UInt8] {
        WebSocketFrame(opcode: .text, payload: Array(text.utf8)).encoded()
    }

    // MARK: - WebSocketHandler

    func webSocketOpened(_ socket: WebSocketConnection) {
        self.socket = socket
        lastHeard = socket.loop.now
        socket.send(encodedFrame: Self.connectFrame)
        socket.send(encodedFrame: Self.readyFrame)
        scheduleHeartbeat(on: socket.loop)
    }

    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage) {
        lastHeard = socket.loop.now
        switch message {
        case .binary:
            socket.close(code: .unsupportedData, reason: "socket.io 0.9 packets are text")
        case .text(let text):
            let packets: [SocketIOPacket]
            do {
                packets = try SocketIOFrameBatch.decode(text)
            } catch {
                sendError(error.description)
                return
            }
            for packet in packets where socket.isOpen {
                handle(packet, on: socket)
            }
        }
    }

    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?) {
        let loop = socket.loop
        for topic in subscriptions {
            unregister(topic, on: loop)
        }
        subscriptions = []
        for appId in subscriptionsPerApp.keys {
            gateway.appSessions.leave(appId)
        }
        subscriptionsPerApp = [:]
        if let heartbeatTimer { loop.cancelTimer(heartbeatTimer) }
        heartbeatTimer = nil
        self.socket = nil
    }

    // MARK: - RealtimeListener

    /// One or more encoded `server_pub` frames, written as they are.
    func realtimeEvent(_ payload: [UInt8]) {
        socket?.send(encodedFrame: payload)
    }

    // MARK: - Packets

    private func handle(_ packet: SocketIOPacket, on socket: WebSocketConnection) {
        switch packet.payload {
        case .disconnect:
            socket.close(code: .normalClosure, reason: "")
        case .event(let name, let args):
            guard name == BmobRealtimeEventName.clientSubscribe.rawValue
                || name == BmobRealtimeEventName.clientUnsubscribe.rawValue
            else {
                // Other events mean nothing to this server; clients may emit their own.
                acknowledge(packet, on: socket)
                return
            }
            do {
                let request = try BmobRealtimeSubscription(eventName: name, args: args)
                try apply(request, on: socket)
                acknowledge(packet, on: socket)
            } catch let error as SocketIOError {
                sendError(error.description)
            } catch let error as BmobAPIError {
                sendError(error.message)
            } catch {
                sendError("subscription failed")
            }
        default:
            // Heartbeats only refresh `lastHeard`; connect, message, json, ack and noop need no answer.
            break
        }
    }

    /// Flutter's client asks for acks (`5:1+::{…}`); answer `6:::1` so it does not wait.
    private func acknowledge(_ packet: SocketIOPacket, on socket: WebSocketConnection) {
        guard let id = packet.id else { return }
        let ack = SocketIOPacket(.ack(id: id.value, args: []), endpoint: packet.endpoint)
        socket.send(text: ack.encoded)
    }

    private func sendError(_ reason: String) {
        // A socket.io 0.9 error reason cannot contain '+' (it separates the advice).
        let text = String(reason.map { $0 == "+" ? " " : $0 }.prefix(200))
        socket?.send(text: SocketIOPacket(.error(reason: text, advice: nil)).encoded)
    }

    private func apply(_ request: BmobRealtimeSubscription, on socket: WebSocketConnection) throws {
        guard BmobName.isValidClassName(request.tableName) else {
            throw BmobAPIError(.invalidClassName, "invalid tableName '\(request.tableName)'")
        }
        guard let runtime = gateway.apps.openedRuntime(id: request.appKey) else {
            throw BmobAPIError(.unauthorized, "unknown appKey")
        }
        let topic = SocketIOTopic(
            appId: request.appKey, tableName: request.tableName, action: request.action.subscribeForm,
            objectId: request.objectId)
        let loop = socket.loop
        if request.isUnsubscribe {
            guard subscriptions.remove(topic) != nil else { return }
            unregister(topic, on: loop)
            leaveIfLast(of: topic.appId)
            return
        }
        guard !subscriptions.contains(topic) else { return }
        guard subscriptions.count < SocketIOGateway.maximumSubscriptionsPerSession else {
            throw BmobAPIError(.badRequest, "too many subscriptions on one connection")
        }
        guard let feed = gateway.feeds.feed(for: runtime) else {
            throw BmobAPIError(.unavailable, "server is shutting down")
        }
        if subscriptionsPerApp[topic.appId] == nil {
            guard gateway.appSessions.join(topic.appId) else {
                throw BmobAPIError(
                    .unavailable,
                    "too many realtime connections for this app (at most \(gateway.appSessions.limit)); try again later")
            }
        }
        subscriptionsPerApp[topic.appId, default: 0] += 1
        subscriptions.insert(topic)
        // Interest first: the feed's floor for the door is then set before the hub can hear the topic.
        feed.addInterest(of: gateway.publisher)
        gateway.hub.subscribe(self, to: topic, on: loop)
    }

    /// Counts one subscription of `appId` less; the last one takes the session off the app's bound.
    private func leaveIfLast(of appId: String) {
        guard let count = subscriptionsPerApp[appId] else { return }
        if count > 1 {
            subscriptionsPerApp[appId] = count - 1
        } else {
            subscriptionsPerApp[appId] = nil
            gateway.appSessions.leave(appId)
        }
    }

    private func unregister(_ topic: SocketIOTopic, on loop: EventLoop) {
        gateway.hub.unsubscribe(self, from: topic, on: loop)
        gateway.feeds.existingFeed(appId: topic.appId)?.removeInterest(of: gateway.publisher)
    }

    // MARK: - Heartbeats

    /// Sends `2:::` every heartbeat interval and drops the client after the timeout without a packet.
    private func scheduleHeartbeat(on loop: EventLoop) {
        let interval = UInt64(gateway.heartbeatSeconds) * 1_000_000_000
        heartbeatTimer = loop.scheduleTimer(afterNanoseconds: interval) {
            self.heartbeatTimer = nil
            guard let socket = self.socket, socket.isOpen else { return }
            let silence = loop.now &- self.lastHeard
            if silence >= UInt64(self.gateway.timeoutSeconds) * 1_000_000_000 {
                socket.close(code: .goingAway, reason: "heartbeat timeout")
                return
            }
            socket.send(encodedFrame: Self.heartbeatFrame)
            self.scheduleHeartbeat(on: loop)
        }
    }
}
