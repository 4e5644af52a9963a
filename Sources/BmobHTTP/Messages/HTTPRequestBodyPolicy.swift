/// How a request's body is received, decided per route from its head (``HTTPResponder/bodyPolicy(for:)``).
package struct HTTPRequestBodyPolicy: Sendable, Hashable {
    /// The largest body accepted (`nil`: the server's default); a larger one is answered 413.
    package var limit: Int?
    /// Whether the handler receives the body as it arrives (``HTTPRequest/bodyStream``), with backpressure,
    /// instead of whole in ``HTTPRequest/body``. Memory per connection then stays bounded whatever the size.
    package var streamed: Bool

    /// A policy with `limit` (`nil`: the server's default) that streams the body or not.
    package init(limit: Int? = nil, streamed: Bool = false) {
        self.limit = limit
        self.streamed = streamed
    }

    /// A buffered body within the server's default limit.
    package static let standard = HTTPRequestBodyPolicy()
}
