package import BmobIO
package import BmobWire

/// A request: head, body, and where it came from. The body is complete in ``body``, or — on a route that
/// streams it (``HTTPRequestBodyPolicy/streamed``) — arrives through ``bodyStream``.
package struct HTTPRequest: Sendable {
    package var head: HTTPRequestHead
    /// The whole body; empty when it is streamed.
    package var body: [UInt8]
    /// The body as it arrives, on a route that streams it; `nil` otherwise.
    package var bodyStream: HTTPRequestBodyStream?
    /// The peer's address, when known.
    package var remoteAddress: SocketAddress?
    /// When the server had the request (its head, and its body unless streamed), in nanoseconds of the
    /// monotonic clock (``Posix/monotonicNanoseconds()``); 0 for a request made outside a server.
    package var receivedAt: UInt64 = 0

    /// A request with `head`, its whole `body` or its `bodyStream`, from `remoteAddress`.
    package init(
        head: HTTPRequestHead, body: [UInt8] = [], bodyStream: HTTPRequestBodyStream? = nil,
        remoteAddress: SocketAddress? = nil
    ) {
        self.head = head
        self.body = body
        self.bodyStream = bodyStream
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
