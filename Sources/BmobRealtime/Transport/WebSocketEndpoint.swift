package import Foundation

/// The parts of a `ws://` or `wss://` URL a client needs to connect and to write its request.
package struct WebSocketEndpoint: Sendable, Hashable {
    /// Whether the connection uses TLS (`wss`).
    package var isSecure: Bool
    /// The host name or IP address, without IPv6 brackets.
    package var host: String
    /// The TCP port: the URL's, or 80 / 443.
    package var port: Int
    /// The request target: the percent-encoded path (at least `/`) and query.
    package var target: String

    /// The parts of `url`.
    ///
    /// - Parameter url: a `ws` or `wss` URL with a host.
    /// - Throws: ``WebSocketTransportError`` with `invalidURL`.
    package init(url: URL) throws(WebSocketTransportError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            var host = components.host, !host.isEmpty
        else {
            throw WebSocketTransportError(.invalidURL, "not a ws:// or wss:// URL with a host")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        isSecure = scheme == "wss"
        self.host = host
        port = components.port ?? (isSecure ? 443 : 80)
        guard (1...65535).contains(port) else { throw WebSocketTransportError(.invalidURL, "port out of range") }
        let path = components.percentEncodedPath
        target = (path.isEmpty ? "/" : path) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The `Host` header value: the host (bracketed when IPv6) and the port when it is not the default.
    package var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }
}
