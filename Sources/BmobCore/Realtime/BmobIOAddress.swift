import Foundation

/// Where the realtime (socket.io 0.9) service is: a scheme, a host and an optional port, nothing more.
///
/// Realtime connects in two steps on the same host and port: an HTTP(S) handshake at
/// `/socket.io/1/?t=<ms>`, then a WebSocket at `ws(s)://host[:port]/socket.io/1/websocket/<sid>`. A secure
/// address (`https`, `wss`) uses HTTPS and WSS, any other HTTP and WS.
///
/// The address is chosen in this order (``resolve(custom:initIO:)``): the one set with `Bmob.resetIODomain`,
/// the `io` field of `/8/init`, then ``fallback`` (`http://io.codenow.cn:3010`).
package struct BmobIOAddress: Sendable, Hashable, CustomStringConvertible {
    /// Whether the service speaks HTTPS and WSS.
    package var isSecure: Bool
    /// The host name or IP address; an IPv6 address without brackets.
    package var host: String
    /// The port, or `nil` for the scheme's default (80 or 443).
    package var port: Int?

    /// The address the SDK uses when neither the app nor `/8/init` names one.
    package static let fallback = BmobIOAddress(isSecure: false, host: "io.codenow.cn", port: 3010)

    /// An address from its parts.
    ///
    /// - Parameters:
    ///   - isSecure: HTTPS and WSS when `true`.
    ///   - host: the host name or IP address (IPv6 without brackets).
    ///   - port: the port, or `nil` for the default.
    package init(isSecure: Bool, host: String, port: Int? = nil) {
        self.isSecure = isSecure
        self.host = host
        self.port = port
    }

    /// Parses `http://host[:port]`, `https://…`, `ws://…`, `wss://…` or a bare `host[:port]` (HTTP).
    ///
    /// Surrounding whitespace and one trailing `/` are ignored. A scheme other than those four, an empty or
    /// malformed host, a port outside 1…65535, user information, a path, a query or a fragment make the
    /// text invalid.
    ///
    /// - Parameter text: the address as the app gives it.
    /// - Returns: the address, or `nil` when the text is not one.
    package init?(parsing text: String) {
        var rest = Substring(text.trimmingWhitespace())
        var secure = false
        if let separator = rest.range(of: "://") {
            switch rest[..<separator.lowerBound].lowercased() {
            case "http", "ws": secure = false
            case "https", "wss": secure = true
            default: return nil
            }
            rest = rest[separator.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        // Anything that would make a path, query, fragment or user information.
        guard !rest.isEmpty, !rest.contains(where: { "/?#@\\ \t".contains($0) }) else { return nil }
        let hostPart: Substring
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            let pieces = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { return nil }
            hostPart = pieces[0]
            if pieces.count == 2 { portPart = pieces[1] }
            guard !hostPart.isEmpty, hostPart.utf8.count <= 253, hostPart.allSatisfy(Self.isHostCharacter),
                !hostPart.hasPrefix("."), !hostPart.hasPrefix("-")
            else { return nil }
        }
        var port: Int?
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(portPart), (1...65535).contains(value)
            else { return nil }
            port = value
        }
        self.init(isSecure: secure, host: String(hostPart), port: port)
    }

    /// The address to connect to: `custom` when set, else the parsable `io` of `/8/init`, else ``fallback``.
    ///
    /// - Parameters:
    ///   - custom: the address set with `Bmob.resetIODomain`, if any.
    ///   - initIO: the `io` text `/8/init` answered, if any.
    /// - Returns: the address to use.
    package static func resolve(custom: BmobIOAddress?, initIO: String?) -> BmobIOAddress {
        if let custom { return custom }
        if let initIO, let address = BmobIOAddress(parsing: initIO) { return address }
        return fallback
    }

    /// `host` or `host:port`, bracketing an IPv6 address; the value of a `Host` header.
    package var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        guard let port else { return name }
        return "\(name):\(port)"
    }

    /// `http://authority` or `https://authority`: the handshake's base and the WebSocket's `Origin`.
    package var httpOrigin: String { (isSecure ? "https://" : "http://") + authority }

    /// `ws://authority` or `wss://authority`.
    package var webSocketOrigin: String { (isSecure ? "wss://" : "ws://") + authority }

    /// The socket.io handshake URL text, `http(s)://authority/socket.io/1/?t=<milliseconds>`.
    ///
    /// - Parameter milliseconds: the current time in milliseconds since 1970, which defeats caches.
    /// - Returns: the URL text.
    package func handshakeURL(milliseconds: Int64) -> String {
        httpOrigin + "/socket.io/1/?t=" + String(milliseconds)
    }

    /// The WebSocket URL text of a socket.io session, `ws(s)://authority/socket.io/1/websocket/<sid>`.
    ///
    /// - Parameter sid: the session id the handshake returned.
    /// - Returns: the URL text.
    package func webSocketURL(sid: String) -> String {
        webSocketOrigin + "/socket.io/1/websocket/" + sid
    }

    /// The HTTP origin, e.g. `https://realtime.example.com:443`.
    package var description: String { httpOrigin }

    /// Letters, digits, `-`, `.` and `_` (seen in some internal host names).
    private static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "."
            || character == "_")
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
