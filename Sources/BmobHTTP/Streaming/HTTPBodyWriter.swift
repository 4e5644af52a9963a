import BmobIO

/// Writes the body of a streamed response (``HTTPResponse/bodyStream``), piece by piece, with backpressure:
/// ``write(_:)`` returns once the connection can take more, so a slow client slows the producer down instead
/// of filling memory.
///
/// The connection frames the pieces (`Content-Length` or chunked, see ``HTTPResponseBodyStream/length``) and
/// ends the body when the producer returns. A write after the connection closed throws
/// ``HTTPStreamError/Code-swift.struct/connectionClosed``; so does any later one, so a producer can simply let
/// the error end it.
package final class HTTPBodyWriter: Sendable {
    private let connection: LoopBound<HTTPConnection>

    init(connection: LoopBound<HTTPConnection>) {
        self.connection = connection
    }

    /// Sends `bytes` as the next piece of the body; returns once the connection's output queue is short enough
    /// for more. May be called from any task; the bytes are written on the connection's loop.
    ///
    /// - Throws: ``HTTPStreamError``: the connection closed, or the bytes go past the announced length.
    package func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        let connection = self.connection
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if connection.loop.inEventLoop {
                connection.value.writeResponseBody(bytes, from: self, continuation)
            } else {
                connection.loop.execute { connection.value.writeResponseBody(bytes, from: self, continuation) }
            }
        }
    }
}
