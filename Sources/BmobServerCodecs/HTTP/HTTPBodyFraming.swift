import BmobWire

/// How the body of a response sent piece by piece is delimited on the wire (RFC 9112 §6).
package enum HTTPBodyFraming: Sendable, Hashable {
    /// `Content-Length`: the body is exactly this many bytes.
    case length(Int)
    /// `Transfer-Encoding: chunked`: each piece is a chunk, and an empty chunk ends the body.
    case chunked
    /// No framing field: the body ends when the connection closes. Only for an HTTP/1.0 client and a body
    /// of unknown length, which cannot be chunked for it.
    case untilClose
}
