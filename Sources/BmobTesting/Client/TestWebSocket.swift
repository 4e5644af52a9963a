import BmobCrypto
package import BmobWire
import Foundation

/// A WebSocket client for tests, over a ``RawHTTPConnection``: it sends frames exactly as asked (masked
/// correctly by default, or raw bytes for malformed input) and returns every frame the server sends,
/// control frames included, so tests see the wire as it is.
///
/// Not thread-safe: use one from one task at a time.
package final class TestWebSocket: @unchecked Sendable {
    // Invariant: used from one task at a time (documented above), like the connection it wraps.
    package let connection: RawHTTPConnection
    /// The server's 101 response.
    package let handshake: RawHTTPResponse
    private var decoder = WebSocketFrameDecoder(role: .client, maximumMessageSize: 1 << 26)

    private init(connection: RawHTTPConnection, handshake: RawHTTPResponse, leftover: [UInt8]) {
        self.connection = connection
        self.handshake = handshake
        decoder.append(leftover)
    }

    /// Connects and upgrades `path`.
    ///
    /// - Throws: ``TestWebSocketError/refused(_:)`` with the response when the server does not answer 101
    ///   with the right accept value.
    package static func connect(
        port: Int, path: String, headers: [(String, String)] = [], timeout: Double = RawHTTPConnection.defaultTimeout
    ) async throws -> TestWebSocket {
        let connection = try RawHTTPConnection(port: port, timeout: timeout)
        let key = Base64.encodeString((0..<16).map { _ in UInt8.random(in: 0...255) })
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try await connection.send(request)
        let response = try await connection.readResponse(interim: true)
        guard response.status == 101, response.headers["Sec-WebSocket-Accept"] == WebSocketHandshake.acceptValue(forKey: key)
        else { throw TestWebSocketError.refused(response) }
        return TestWebSocket(connection: connection, handshake: response, leftover: try await connection.receiveBuffered())
    }

    /// Sends a frame, masked with a random key unless `masked` is false (a protocol violation).
    package func send(_ frame: WebSocketFrame, masked: Bool = true) async throws {
        var frame = frame
        if masked { frame.maskingKey = WebSocketMaskingKey((0..<4).map { _ in UInt8.random(in: 0...255) }) }
        try await connection.send(frame.encoded())
    }

    /// Sends one unfragmented text message.
    package func send(text: String) async throws {
        try await send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    /// Sends bytes as they are.
    package func send(raw bytes: [UInt8]) async throws {
        try await connection.send(bytes)
    }

    /// The next frame from the server, or `nil` when the server closed the TCP connection.
    package func nextFrame() async throws -> WebSocketFrame? {
        while true {
            if let frame = try decoder.next() { return frame }
            let bytes = try await connection.receive()
            if bytes.isEmpty { return nil }
            decoder.append(bytes)
        }
    }

    /// The next text message, skipping pings; `nil` when the server closed.
    ///
    /// - Throws: ``TestWebSocketError/unexpected(_:)`` for a close or binary frame.
    package func nextText() async throws -> String? {
        while let frame = try await nextFrame() {
            switch frame.opcode {
            case .text: return String(decoding: frame.payload, as: UTF8.self)
            case .ping, .pong: continue
            default: throw TestWebSocketError.unexpected(frame)
            }
        }
        return nil
    }

    /// Reads until the server's close frame and returns its code (`nil` for an empty close frame), or throws
    /// ``TestWebSocketError/closedWithoutCloseFrame`` when TCP ends first. Other frames are skipped.
    package func nextClose() async throws -> WebSocketCloseCode? {
        while let frame = try await nextFrame() {
            guard frame.opcode == .close else { continue }
            guard frame.payload.count >= 2 else { return nil }
            return WebSocketCloseCode(rawValue: UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]))
        }
        throw TestWebSocketError.closedWithoutCloseFrame
    }
}

/// Why a ``TestWebSocket`` call failed.
package enum TestWebSocketError: Error {
    case refused(RawHTTPResponse)
    case unexpected(WebSocketFrame)
    case closedWithoutCloseFrame
}
