package import BmobIO

/// An open file to send in responses, read off the loop on a ``ThreadPool``. Owns its descriptor and closes
/// it when released.
package final class HTTPFile: HTTPByteSource {
    private let fd: Int32
    /// The file's size in bytes when it was opened.
    package let size: Int
    private let pool: ThreadPool

    private init(fd: Int32, size: Int, pool: ThreadPool) {
        self.fd = fd
        self.size = size
        self.pool = pool
    }

    deinit {
        Posix.close(fd)
    }

    /// Opens the regular file at `path` for reading, on `pool`.
    ///
    /// - Throws: ``IOError`` (`ENOENT`, `EACCES`, `EISDIR`, …).
    package static func open(atPath path: String, pool: ThreadPool) async throws -> HTTPFile {
        try await pool.run { _ in
            let fd = try Posix.openForReading(path)
            do {
                return HTTPFile(fd: fd, size: try Posix.fileSize(fd), pool: pool)
            } catch {
                Posix.close(fd)
                throw error
            }
        }
    }

    /// Reads up to `count` bytes at `offset` on the pool; fewer only at the end of the file.
    ///
    /// - Throws: ``IOError``.
    package func read(offset: Int, count: Int) async throws -> [UInt8] {
        try await pool.run { [self] _ in
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let read = try bytes.withUnsafeMutableBytes { buffer throws(IOError) in
                    try Posix.pread(
                        fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), offset: offset + filled)
                }
                if read == 0 { break }
                filled += read
            }
            if filled < count { bytes.removeSubrange(filled...) }
            return bytes
        }
    }

    /// A body stream of the bytes `first..<first + count`, read 64 KiB at a time as the client takes them.
    ///
    /// - Throws (from the producer): ``HTTPStreamError/Code-swift.struct/lengthMismatch`` when the file
    ///   shrank under it, ``IOError`` when a read fails.
    package func bodyStream(from first: Int, count: Int) -> HTTPResponseBodyStream {
        let chunkSize = 64 * 1024
        return HTTPResponseBodyStream(length: count) { [self] writer in
            var offset = first
            let end = first + count
            while offset < end {
                let bytes = try await read(offset: offset, count: min(chunkSize, end - offset))
                guard !bytes.isEmpty else {
                    throw HTTPStreamError(.lengthMismatch, "the file ended before the announced length")
                }
                try await writer.write(bytes)
                offset += bytes.count
            }
        }
    }
}
