import BmobCrypto

/// The opening handshake of RFC 6455 §4: checking an upgrade request and computing its
/// `Sec-WebSocket-Accept` on the server; making a key and checking the answer on the client.
///
/// ## Topics
/// ### Server
/// - ``accept(_:)``
/// - ``response(accept:)``
/// ### Client
/// - ``makeKey(using:)``
/// - ``requestHeaders(host:key:)``
/// - ``checkResponse(_:key:)``
/// ### Both
/// - ``acceptValue(forKey:)``
/// - ``magicGUID``
package enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the key before hashing.
    package static let magicGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value for `key`: base64 of SHA-1 of the key followed by ``magicGUID``.
    ///
    /// - Parameter key: the `Sec-WebSocket-Key` text exactly as sent.
    /// - Returns: the 28-character accept value.
    package static func acceptValue(forKey key: String) -> String {
        Base64.encodeString(WebSocketSHA1.hash(Array(key.utf8) + Array(magicGUID.utf8)))
    }

    /// Checks that `head` is a WebSocket upgrade request (§4.2.1) and computes its accept value.
    ///
    /// The method must be GET over HTTP/1.1 or later; `Upgrade` must name `websocket` and `Connection` hold an
    /// `upgrade` token (both case-insensitive); `Sec-WebSocket-Version` must be 13; `Sec-WebSocket-Key` must
    /// appear once and be the base64 of 16 bytes. Extensions and subprotocols are not negotiated.
    ///
    /// - Parameter head: the request head.
    /// - Returns: the `Sec-WebSocket-Accept` value for ``response(accept:)``.
    /// - Throws: ``WebSocketHandshakeError``; answer with its ``WebSocketHandshakeError/response``.
    package static func accept(_ head: HTTPRequestHead) throws(WebSocketHandshakeError) -> String {
        guard head.method == .get else { throw .methodNotGet }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            throw .httpVersionTooOld
        }
        guard head.headers.containsToken("websocket", in: "Upgrade") else { throw .missingUpgradeWebSocket }
        guard head.headers.containsToken("upgrade", in: "Connection") else { throw .missingConnectionUpgrade }
        let versions = head.headers.values(for: "Sec-WebSocket-Version")
        guard versions.count == 1, versions[0].trimmingASCIISpaces() == "13" else { throw .unsupportedVersion }
        let keys = head.headers.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1 else { throw .invalidKey }
        let key = keys[0].trimmingASCIISpaces()
        guard key.utf8.count == 24, Base64.decode(Array(key.utf8))?.count == 16 else { throw .invalidKey }
        return acceptValue(forKey: key)
    }

    /// The `101 Switching Protocols` response that completes a server's handshake.
    ///
    /// - Parameter accept: the value ``accept(_:)`` returned.
    /// - Returns: the response head, with `Upgrade`, `Connection` and `Sec-WebSocket-Accept`.
    package static func response(accept: String) -> HTTPResponseHead {
        HTTPResponseHead(
            status: .switchingProtocols,
            headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept])
    }

    /// A fresh `Sec-WebSocket-Key`: the base64 of 16 random bytes.
    ///
    /// - Parameter generator: the source of randomness, passed in so tests can be deterministic.
    /// - Returns: a 24-character key.
    package static func makeKey(using generator: inout some RandomNumberGenerator) -> String {
        Base64.encodeString((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The header fields of a client's upgrade request (the method is GET, the version HTTP/1.1).
    ///
    /// - Parameters:
    ///   - host: the `Host` value (host, and port when not the default).
    ///   - key: the value ``makeKey(using:)`` returned.
    /// - Returns: `Host`, `Upgrade`, `Connection`, `Sec-WebSocket-Key` and `Sec-WebSocket-Version`.
    package static func requestHeaders(host: String, key: String) -> HTTPHeaders {
        [
            "Host": host, "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13",
        ]
    }

    /// Checks the server's answer to a client's upgrade request (§4.1): status 101, `Upgrade: websocket`,
    /// a `Connection: upgrade` token, the right `Sec-WebSocket-Accept`, and no extension or subprotocol,
    /// since the client offers none.
    ///
    /// - Parameters:
    ///   - head: the response head.
    ///   - key: the key the request sent.
    /// - Throws: ``WebSocketHandshakeError``; the client then fails the connection.
    package static func checkResponse(_ head: HTTPResponseHead, key: String) throws(WebSocketHandshakeError) {
        guard head.status.code == 101 else { throw .unexpectedStatus(head.status.code) }
        guard head.headers.containsToken("websocket", in: "Upgrade") else { throw .missingUpgradeWebSocket }
        guard head.headers.containsToken("upgrade", in: "Connection") else { throw .missingConnectionUpgrade }
        let accepts = head.headers.values(for: "Sec-WebSocket-Accept")
        guard accepts.count == 1, accepts[0].trimmingASCIISpaces() == acceptValue(forKey: key) else {
            throw .acceptMismatch
        }
        guard !head.headers.contains("Sec-WebSocket-Extensions"), !head.headers.contains("Sec-WebSocket-Protocol")
        else { throw .unexpectedNegotiation }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        var lower = 0
        var upper = bytes.count
        while lower < upper && (bytes[lower] == 0x20 || bytes[lower] == 0x09) { lower += 1 }
        while upper > lower && (bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09) { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
