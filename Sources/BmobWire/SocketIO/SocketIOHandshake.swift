/// The socket.io 0.9 handshake answer, `sid:heartbeatTimeout:closeTimeout:transports`.
///
/// A client first asks `GET /socket.io/1/?t=<ms>` (see ``SocketIOPath``); the server answers with this text,
/// for example `4d4f185e96a7b:60:60:websocket`. The client takes the ``sid``, checks that `websocket` is
/// among the ``transports``, and opens `/socket.io/1/websocket/<sid>`. Timeouts are in seconds; an empty field
/// (nil here) disables that timeout.
///
/// ## Topics
/// ### Session ids
/// - ``isValidSID(_:)``
/// - ``makeSID(using:)``
/// ### Text form
/// - ``init(parsing:)``
/// - ``encoded``
package struct SocketIOHandshake: Sendable, Hashable {
    /// The longest session id accepted.
    package static let maximumSIDLength = 128
    /// The largest timeout accepted, in seconds (about 31 years).
    package static let maximumTimeout = 999_999_999
    /// The transport Bmob clients need: `websocket`.
    package static let webSocketTransport = "websocket"

    /// The session id, which names the connection in `/socket.io/1/websocket/<sid>`.
    package let sid: String
    /// Seconds without a heartbeat after which the peer gives up; nil when heartbeats are off.
    package let heartbeatTimeout: Int?
    /// Seconds the server keeps a closed connection's session; nil when unset.
    package let closeTimeout: Int?
    /// The transports the server offers, in its order of preference, such as `websocket` and `xhr-polling`.
    package let transports: [String]

    /// Creates a handshake answer.
    ///
    /// An invalid sid (``isValidSID(_:)``), a timeout outside `0...maximumTimeout`, no transport, or a
    /// transport name that is empty or not letters, digits, `-` and `_` is a programmer error.
    ///
    /// - Parameters:
    ///   - sid: The session id.
    ///   - heartbeatTimeout: The heartbeat timeout in seconds, or nil for none.
    ///   - closeTimeout: The close timeout in seconds, or nil for none.
    ///   - transports: The offered transports; `websocket` only by default.
    package init(
        sid: String, heartbeatTimeout: Int?, closeTimeout: Int?, transports: [String] = [Self.webSocketTransport]
    ) {
        precondition(Self.isValidSID(sid), "invalid socket.io session id")
        for timeout in [heartbeatTimeout, closeTimeout] {
            if let timeout { precondition((0...Self.maximumTimeout).contains(timeout), "timeout out of range") }
        }
        precondition(!transports.isEmpty && transports.allSatisfy(Self.isValidToken), "invalid transport list")
        self.sid = sid
        self.heartbeatTimeout = heartbeatTimeout
        self.closeTimeout = closeTimeout
        self.transports = transports
    }

    /// Parses a handshake answer, such as `4d4f185e96a7b:60:60:websocket,xhr-polling`.
    ///
    /// ASCII whitespace around the text (a trailing newline) is ignored.
    ///
    /// - Parameter text: The body of the handshake response.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/invalidHandshake`` when there are not four
    ///   fields, the sid is invalid, a timeout is not digits, or the transport list is empty or malformed.
    package init(parsing text: String) throws(SocketIOError) {
        // Split bytes, not Characters: a ':' followed by a combining mark is one Character.
        let fields = Self.trimmed(text).split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 4 else {
            throw SocketIOError(.invalidHandshake, "handshake must be sid:heartbeat:close:transports")
        }
        let sid = fields[0]
        guard Self.isValidSID(sid) else { throw SocketIOError(.invalidHandshake, "invalid session id") }
        let heartbeat = try Self.timeout(fields[1], name: "heartbeat")
        let close = try Self.timeout(fields[2], name: "close")
        let transports = fields[3].utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard transports.allSatisfy(Self.isValidToken) else {
            throw SocketIOError(.invalidHandshake, "transports must be comma-separated names")
        }
        self.init(sid: sid, heartbeatTimeout: heartbeat, closeTimeout: close, transports: transports)
    }

    /// The answer's text, `sid:heartbeat:close:transports`, with empty fields for nil timeouts.
    package var encoded: String {
        let heartbeat = heartbeatTimeout.map(String.init) ?? ""
        let close = closeTimeout.map(String.init) ?? ""
        return "\(sid):\(heartbeat):\(close):\(transports.joined(separator: ","))"
    }

    /// Whether the server offers the WebSocket transport, which Bmob clients require.
    package var supportsWebSocket: Bool { transports.contains(Self.webSocketTransport) }

    /// Whether `sid` can be a session id: 1 to ``maximumSIDLength`` ASCII letters, digits, `-` and `_`.
    ///
    /// socket.io 0.9 servers make decimal sids and older ones hexadecimal; both fit. These characters need no
    /// escaping in a URL path and cannot be taken for the handshake's `:` or a path's `/`, `?` and `%`.
    ///
    /// - Parameter sid: The candidate.
    /// - Returns: Whether it is acceptable.
    package static func isValidSID(_ sid: some StringProtocol) -> Bool {
        sid.utf8.count <= maximumSIDLength && isValidToken(sid)
    }

    /// A new random session id: 24 characters of letters and digits, about 142 bits.
    ///
    /// - Parameter generator: The source of randomness; the server passes a cryptographic one
    ///   (`SystemRandomNumberGenerator`), tests a seeded one.
    /// - Returns: A valid session id.
    package static func makeSID(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let bytes = (0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is non-empty ASCII letters, digits, `-` and `_`.
    private static func isValidToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default:
                    false
                }
            }
    }

    /// An empty field as nil, digits as seconds.
    private static func timeout(_ field: String, name: String) throws(SocketIOError) -> Int? {
        if field.isEmpty { return nil }
        guard field.utf8.count <= 9, field.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Int(field)
        else {
            throw SocketIOError(.invalidHandshake, "\(name) timeout must be empty or up to 9 digits")
        }
        return seconds
    }

    /// The UTF-8 bytes of `text` without leading and trailing ASCII whitespace.
    private static func trimmed(_ text: String) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }
}
