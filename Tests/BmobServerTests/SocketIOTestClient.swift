import BmobTesting
import BmobWire
import Foundation

/// A socket.io 0.9 client for gateway tests: handshake, WebSocket, `1::` and ready, then subscriptions and
/// events as packets.
final class SocketIOTestClient: @unchecked Sendable {
    // Invariant: used from one task at a time, like the TestWebSocket it wraps.
    let socket: TestWebSocket
    let sid: String

    private init(socket: TestWebSocket, sid: String) {
        self.socket = socket
        self.sid = sid
    }

    /// Handshakes, connects, and checks that `1::` and the ready event come first.
    static func connect(_ server: TestServer, origin: String? = "http://io.bmob.cn") async throws -> SocketIOTestClient {
        try await connect(port: server.port, origin: origin)
    }

    /// Handshakes with the server on `port`, connects (to `socketPort`, another node, when given), and checks that
    /// `1::` and the ready event come first.
    static func connect(
        port: Int, socketPort: Int? = nil, origin: String? = "http://io.bmob.cn"
    ) async throws -> SocketIOTestClient {
        let connection = try RawHTTPConnection(port: port)
        try await connection.send(HTTPRequestText.make("GET", "/socket.io/1/?t=\(Int(Date().timeIntervalSince1970 * 1000))"))
        let handshake = try await connection.readResponse()
        guard handshake.status == 200 else { throw TestFailure("handshake: \(handshake.status) \(handshake.text)") }
        let answer = try SocketIOHandshake(parsing: handshake.text)
        let socket = try await TestWebSocket.connect(
            port: socketPort ?? port, path: "/socket.io/1/websocket/\(answer.sid)",
            headers: origin.map { [("Origin", $0)] } ?? [])
        let client = SocketIOTestClient(socket: socket, sid: answer.sid)
        guard try await client.nextPacket() == .connect else { throw TestFailure("first packet is not 1::") }
        guard try await client.nextPacket() == BmobRealtimeEventName.readyPacket else {
            throw TestFailure("second packet is not client_send_data")
        }
        return client
    }

    /// The next packet other than a heartbeat; `nil` when the server closed.
    func nextPacket(skippingHeartbeats: Bool = true) async throws -> SocketIOPacket? {
        while let text = try await socket.nextText() {
            let packet = try SocketIOPacket(decoding: text)
            if skippingHeartbeats, packet == .heartbeat { continue }
            return packet
        }
        return nil
    }

    private var nextAckId: UInt64 = 1

    /// Sends an event asking for an ack and waits for it, so that the server has applied it (packets of one
    /// connection are handled in order) before the test writes anything.
    func sendAcknowledged(_ name: String, _ argument: JSONValue) async throws {
        let id = nextAckId
        nextAckId += 1
        let packet = SocketIOPacket.event(name, [.string(argument.jsonString)], id: SocketIOPacketID(id, ackWithData: true))
        try await socket.send(text: packet.encoded)
        guard case .ack(let acknowledged, _) = try await nextPacket()?.payload, acknowledged == id else {
            throw TestFailure("no ack for \(name)")
        }
    }

    /// Sends a subscription request without waiting for anything.
    func send(_ subscription: BmobRealtimeSubscription) async throws {
        try await socket.send(text: subscription.packet().encoded)
    }

    /// Subscribes (or, with an `unsub_*` action, unsubscribes) and waits until the server applied it.
    func subscribe(_ table: String, _ action: BmobRealtimeAction, objectId: String = "", appKey: String = TestServer.applicationId) async throws {
        let subscription = BmobRealtimeSubscription(appKey: appKey, tableName: table, objectId: objectId, action: action)
        try await socket.send(text: subscription.packet().encoded)
        // The ack of a second, harmless event proves the first was applied.
        try await sendAcknowledged("ping_after_subscribe", .object([:]))
    }

    /// The next `server_pub` message.
    func nextEvent() async throws -> BmobRealtimePublication {
        guard let packet = try await nextPacket() else { throw TestFailure("server closed before an event") }
        return try BmobRealtimePublication(packet: packet)
    }

    /// Waits `milliseconds` and fails if any packet other than a heartbeat arrives meanwhile.
    func expectSilence(milliseconds: Int = 300) async throws -> SocketIOPacket? {
        let previous = socket.connection.timeout
        socket.connection.timeout = Double(milliseconds) / 1000
        defer { socket.connection.timeout = previous }
        do {
            return try await nextPacket()
        } catch RawHTTPError.timeout {
            return nil
        }
    }
}
