package import BmobHTTP
package import BmobWire

/// An object of the bucket open for a download through the server: its size from `HeadObject`, its bytes from
/// ranged `GetObject`s of ``chunkBytes`` each, sent to the client one after the other.
///
/// The next piece is fetched while the current one is written, so a download holds at most two pieces, and a
/// slow client slows the fetching down (the body writer waits for it). Every piece asks for S3's entity tag
/// of the `HeadObject` (`If-Match`): a key is written once, but should the object change all the same, the
/// download breaks off rather than mix two objects.
package struct S3ObjectSource: HTTPByteSource {
    /// The object's key.
    package let key: FileKey
    /// The object's size and entity tag.
    package let head: S3ObjectHead
    /// The bytes of one ranged read.
    package let chunkBytes: Int
    private let client: S3Client

    /// The object under `key` of `client`'s bucket, as `head` described it.
    package init(key: FileKey, head: S3ObjectHead, chunkBytes: Int, client: S3Client) {
        self.key = key
        self.head = head
        self.chunkBytes = max(1, chunkBytes)
        self.client = client
    }

    /// The size `HeadObject` told.
    package var size: Int { head.size }

    /// The bytes `first..<first + count`, fetched a piece ahead of the client.
    package func bodyStream(from first: Int, count: Int) -> HTTPResponseBodyStream {
        HTTPResponseBodyStream(length: count) { [self] writer in
            let end = first + count
            guard first < end else { return }
            var offset = first
            var piece = try await read(at: offset, end: end)
            while true {
                offset += piece.count
                guard offset < end else {
                    try await writer.write(piece)
                    return
                }
                // Leaving the scope early (the client went away) cancels the read ahead.
                let ahead = offset
                async let next = read(at: ahead, end: end)
                try await writer.write(piece)
                piece = try await next
            }
        }
    }

    /// The piece starting at `offset`, up to ``chunkBytes`` and not past `end`.
    private func read(at offset: Int, end: Int) async throws -> [UInt8] {
        try await client.getObject(key, first: offset, count: min(chunkBytes, end - offset), etag: head.etag)
    }
}
