package import BmobHTTP

/// A stored file open for a download (``FileStorage/open(_:)``): its size, and any range of its bytes as a body
/// stream read while the client takes it, so that a download never holds the whole file in memory. The local
/// provider's is the file on disk (``BmobHTTP/HTTPFile``); the S3 provider's reads the object in ranged pieces
/// (``S3ObjectSource``).
package protocol FileDownloadSource: Sendable {
    /// The file's size in bytes.
    var size: Int { get }

    /// A body of the bytes `first..<first + count` (within ``size``), read as the client takes them.
    func bodyStream(first: Int, count: Int) -> HTTPResponseBodyStream
}

extension HTTPFile: FileDownloadSource {
    /// The bytes read from the file in 64 KiB pieces.
    package func bodyStream(first: Int, count: Int) -> HTTPResponseBodyStream {
        bodyStream(from: first, count: count)
    }
}
