/// Bytes a response can send in any range without holding them all: their size, and a body stream of any
/// range read while the client takes it. A file on disk (``HTTPFile``) is one; a server may add others (an
/// object read from a bucket in ranged pieces). ``HTTPResponse/file(_:for:contentType:headers:)`` answers
/// `Range` requests from any of them.
package protocol HTTPByteSource: Sendable {
    /// The size in bytes.
    var size: Int { get }

    /// A body of the bytes `first..<first + count` (within ``size``), read as the client takes them.
    func bodyStream(from first: Int, count: Int) -> HTTPResponseBodyStream
}
