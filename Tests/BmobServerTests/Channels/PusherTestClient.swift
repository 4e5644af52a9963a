import BmobServer
import BmobTesting
import BmobWire
import Foundation

/// A Pusher-protocol client for the channels door's tests: the WebSocket of `/app/{key}`, frames as JSON, and
/// signed subscriptions and signins with the test app's channel credentials.
final class PusherTestClient: @unchecked Sendable {
    // Invariant: used from one task at a time, like the TestWebSocket it wraps.
    let socket: TestWebSocket
    let prefix: String
    private(set) var socketId = ""

    private init(socket: TestWebSocket, prefix: String) {
        self.socket = socket
        self.prefix = prefix
    }

    /// Opens `/app/{key}` with `query` and returns the client without reading anything.
    static func open(_ server: TestServer, key: String = TestServer.channels.key, query: String = "protocol=7", prefix: String = "pusher")
        async throws -> PusherTestClient
    {
        let socket = try await TestWebSocket.connect(port: server.port, path: "/app/\(key)?\(query)")
        return PusherTestClient(socket: socket, prefix: prefix)
    }

    /// Opens the connection and reads its `connection_established`.
    static func connect(_ server: TestServer, prefix: String = "pusher") async throws -> PusherTestClient {
        try await connect(port: server.port, prefix: prefix)
    }

    /// Opens the connection to the server on `port` (another process, say) and reads its `connection_established`.
    static func connect(port: Int, prefix: String = "pusher") async throws -> PusherTestClient {
        let socket = try await TestWebSocket.connect(port: port, path: "/app/\(TestServer.channels.key)?protocol=7&prefix=\(prefix)")
        let client = PusherTestClient(socket: socket, prefix: prefix)
        let first = try await client.next()
        guard first["event"]?.stringValue == "\(prefix):connection_established",
            let data = first["data"]?.stringValue, let id = try JSONParser.parse(data)["socket_id"]?.stringValue
        else { throw TestFailure("no connection_established: \(first)") }
        client.socketId = id
        return client
    }

    /// The next frame as JSON; fails when the server closed.
    func next() async throws -> JSONValue {
        guard let text = try await socket.nextText() else { throw TestFailure("the server closed the connection") }
        return try JSONParser.parse(text)
    }

    /// The next frame that is not a pong.
    func nextEvent() async throws -> JSONValue {
        while true {
            let frame = try await next()
            if frame["event"]?.stringValue != "\(prefix):pong" { return frame }
        }
    }

    /// The count of the next `{prefix}_internal:subscription_count`, skipping other frames.
    func nextSubscriptionCount() async throws -> Int64? {
        while true {
            let frame = try await nextEvent()
            guard frame["event"]?.stringValue == "\(prefix)_internal:subscription_count" else { continue }
            return try JSONParser.parse(frame["data"]?.stringValue ?? "")["subscription_count"]?.int64Value
        }
    }

    /// Sends a frame.
    func send(_ frame: JSONValue) async throws {
        try await socket.send(text: frame.jsonString)
    }

    /// Subscribes, signing private and presence channels (with `channelData` for presence), and returns the answer.
    @discardableResult
    func subscribe(_ channel: String, channelData: String? = nil, auth: String? = nil) async throws -> JSONValue {
        var data: [String: JSONValue] = ["channel": .string(channel)]
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            var message = "\(socketId):\(channel)"
            if let channelData { message += ":" + channelData }
            data["auth"] = .string(auth ?? Self.sign(message))
        }
        if let channelData { data["channel_data"] = .string(channelData) }
        try await send(["event": .string("\(prefix):subscribe"), "data": .object(data)])
        return try await nextEvent()
    }

    /// Signs in as `userData` and returns the answer.
    func signIn(_ userData: String, auth: String? = nil) async throws -> JSONValue {
        try await send([
            "event": .string("\(prefix):signin"),
            "data": ["auth": .string(auth ?? Self.sign("\(socketId)::user::\(userData)")), "user_data": .string(userData)],
        ])
        return try await nextEvent()
    }

    /// Waits `milliseconds` and returns the first frame that arrives meanwhile, `nil` when none does.
    func silence(milliseconds: Int = 300) async throws -> JSONValue? {
        let previous = socket.connection.timeout
        socket.connection.timeout = Double(milliseconds) / 1000
        defer { socket.connection.timeout = previous }
        do {
            return try await next()
        } catch RawHTTPError.timeout {
            return nil
        }
    }

    /// `key:signature` of `message` with the test app's channel secret.
    static func sign(_ message: String) -> String {
        TestServer.channels.key + ":" + PusherSignatures.signature(secret: TestServer.channels.secret, message: message)
    }
}
