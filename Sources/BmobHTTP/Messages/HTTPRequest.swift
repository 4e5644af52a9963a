package import BmobIO
package import BmobWire

/// A complete request: head, body, and where it came from.
package struct HTTPRequest: Sendable {
    package var head: HTTPRequestHead
    package var body: [UInt8]
    /// The peer's address, when known.
    package var remoteAddress: SocketAddress?

    package init(head: HTTPRequestHead, body: [UInt8] = [], remoteAddress: SocketAddress? = nil) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }

    package var method: HTTPMethod { head.method }
    package var headers: HTTPHeaders { head.headers }
    /// The raw path, before percent-decoding.
    package var path: Substring { head.path }

    /// The query string's name–value pairs, form-decoded (`+` is a space).
    package var queryItems: [(name: String, value: String)] {
        QueryString.parse(head.query)
    }

    /// The first query value called `name`.
    package func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
