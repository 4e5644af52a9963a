import BmobCore
import BmobCrypto
import Foundation

/// The SHA-256 of a file's content, which names its resume record: bytes in memory at once, a local file in
/// chunks (never whole), checking for cancellation between chunks.
enum ContentDigest {
    /// Bytes read at a time from a local file.
    static let chunkSize = 1 << 20

    /// Lowercase hex SHA-256 of `content`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled meanwhile; ``BmobError/invalidParameter(reason:)``
    ///   when the file cannot be read.
    static func hex(of content: FileContent) throws -> String {
        switch content {
        case .data(let data):
            return SHA256.hex(data)
        case .path(let url):
            let handle: FileHandle
            do {
                handle = try FileHandle(forReadingFrom: url)
            } catch {
                throw BmobError.invalidParameter(reason: "cannot read \(url.path): \(error.localizedDescription)")
            }
            defer { try? handle.close() }
            var hasher = SHA256Hasher()
            while true {
                try Task.checkCancellation()
                let chunk: Data
                do {
                    chunk = try handle.read(upToCount: chunkSize) ?? Data()
                } catch {
                    throw BmobError.invalidParameter(reason: "cannot read \(url.path): \(error.localizedDescription)")
                }
                if chunk.isEmpty { break }
                hasher.update(chunk)
            }
            return Hex.encode(hasher.finalize())
        }
    }
}
