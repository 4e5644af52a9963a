/// The two socket.io 0.9 request paths a Bmob realtime server answers.
///
/// Clients ask `GET /socket.io/1/?t=<ms>` for a ``SocketIOHandshake``, then upgrade
/// `/socket.io/1/websocket/<sid>` to a WebSocket. The polling transports (`/socket.io/1/xhr-polling/<sid>`)
/// are not served, so they parse as nil.
package enum SocketIOPath: Sendable, Hashable {
    /// `/socket.io/1/` (or `/socket.io/1`), with any query such as `?t=1700000000000`.
    case handshake
    /// `/socket.io/1/websocket/<sid>` (a trailing `/` and any query are allowed), for a valid sid.
    case websocket(sid: String)

    /// The common prefix of both paths.
    package static let prefix = "/socket.io/1"

    /// Recognises a request target: a path with an optional `?query`, which is ignored.
    ///
    /// - Parameter target: The request target, such as `/socket.io/1/websocket/4d4f185e96a7b`.
    /// - Returns: The path, or nil for any other target and for an invalid sid
    ///   (``SocketIOHandshake/isValidSID(_:)``).
    package init?(target: some StringProtocol) {
        // Bytes, not Characters: a separator followed by a combining mark is still a separator.
        let bytes = Array(target.utf8.prefix { $0 != UInt8(ascii: "?") })
        let prefix = Array(Self.prefix.utf8)
        guard bytes.starts(with: prefix) else { return nil }
        var rest = bytes[prefix.count...]
        if rest.isEmpty || rest.elementsEqual("/".utf8) {
            self = .handshake
            return
        }
        let transport = Array("/websocket/".utf8)
        guard rest.starts(with: transport) else { return nil }
        rest = rest.dropFirst(transport.count)
        if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
        let sid = String(decoding: rest, as: UTF8.self)
        guard SocketIOHandshake.isValidSID(sid) else { return nil }
        self = .websocket(sid: sid)
    }

    /// The path without a query: `/socket.io/1/` or `/socket.io/1/websocket/<sid>`.
    package var path: String {
        switch self {
        case .handshake: Self.prefix + "/"
        case .websocket(let sid): Self.prefix + "/websocket/" + sid
        }
    }

    /// The handshake target the clients send, `/socket.io/1/?t=<milliseconds>`, which defeats caches.
    ///
    /// - Parameter milliseconds: The current time in milliseconds since 1970, from the caller's clock.
    /// - Returns: The request target.
    package static func handshakeTarget(milliseconds: Int64) -> String {
        SocketIOPath.handshake.path + "?t=" + String(milliseconds)
    }
}
