package import Foundation

/// The URLs a client uses, from the app's base URL (`http://host:port/apps/<applicationId>`, or any URL): the sync
/// socket at `<base>/api/1/sync` with the scheme swapped (`http` → `ws`, `https` → `wss`), and HTTP routes under
/// `<base>/api/…`.
package struct OnebaseEndpoint: Sendable, Hashable {
    /// The base URL, without a trailing slash.
    package let base: URL
    /// The sync WebSocket's URL.
    package let socket: URL

    /// The endpoint of `url`.
    ///
    /// - Parameter url: an `http`, `https`, `ws` or `wss` URL with a host.
    /// - Throws: ``OnebaseError`` for anything else.
    package init(url: String) throws(OnebaseError) {
        var text = url.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw OnebaseError(message: "the client URL must be http(s)://host[:port][/path]")
        }
        let socketScheme: String
        switch scheme {
        case "http", "ws": socketScheme = "ws"
        case "https", "wss": socketScheme = "wss"
        default: throw OnebaseError(message: "the client URL's scheme must be http, https, ws or wss")
        }
        components.query = nil
        components.fragment = nil
        components.scheme = socketScheme == "ws" ? "http" : "https"
        guard let base = components.url else { throw OnebaseError(message: "the client URL is not valid") }
        components.scheme = socketScheme
        components.path += "/api/1/sync"
        guard let socket = components.url else { throw OnebaseError(message: "the client URL is not valid") }
        self.base = base
        self.socket = socket
    }

    /// `<base>/api/<route>`, such as `api/auth/password`.
    ///
    /// - Parameter route: the path after `<base>/api/`.
    /// - Returns: the URL.
    package func http(_ route: String) -> URL {
        base.appendingPathComponent("api").appendingPathComponent(route)
    }
}
