/// A response body produced while it is sent: the handler returns it in ``HTTPResponse/bodyStream`` and the
/// connection calls ``produce`` with a writer once the head is written.
package struct HTTPResponseBodyStream: Sendable {
    /// The body's length when known, sent as `Content-Length` (the producer must write exactly that many
    /// bytes, or the connection is closed); `nil` sends the body chunked (to an HTTP/1.0 client: until the
    /// connection closes).
    package var length: Int?
    /// Writes the body. Throwing ends the response by closing the connection, since its head is gone already.
    package var produce: @Sendable (HTTPBodyWriter) async throws -> Void

    /// A body of `length` bytes (`nil`: unknown) that `produce` writes.
    package init(length: Int?, produce: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
        self.length = length
        self.produce = produce
    }
}
