import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a ustar archive entry by entry, each entry's bytes streamed in pieces of at most 1 MiB. A header whose
/// size runs past the end of the file is refused before anything of it is read. Blocking; one thread at a time.
final class TarArchiveReader {
    private let fd: Int32
    private let path: String
    private let fileSize: Int
    private var offset = 0

    init(path: String) throws(BackupError) {
        do {
            fd = try Posix.openForReading(path)
        } catch {
            throw BackupError("cannot open \(path): \(error)")
        }
        do {
            fileSize = try Posix.fileSize(fd)
        } catch {
            Posix.close(fd)
            throw BackupError("cannot read \(path): \(error)")
        }
        self.path = path
    }

    deinit {
        Posix.close(fd)
    }

    /// The next entry's header, or `nil` at the archive's end. The caller reads the entry's bytes with
    /// ``readContent(of:_:)`` before asking for the next header.
    func nextHeader() throws(BackupError) -> TarHeader? {
        guard offset + TarHeader.blockSize <= fileSize else {
            throw BackupError("\(path) ends in the middle of the archive: it is truncated")
        }
        let block = try read(TarHeader.blockSize)
        guard let header = try TarHeader.decode(block) else { return nil }
        let padded = (header.size + TarHeader.blockSize - 1) / TarHeader.blockSize * TarHeader.blockSize
        guard offset + padded <= fileSize else {
            throw BackupError("\(header.name): the entry runs past the end of \(path): the archive is truncated")
        }
        return header
    }

    /// Streams the bytes of the entry `header` (just returned by ``nextHeader()``) to `consume`, then skips its
    /// padding.
    func readContent(of header: TarHeader, _ consume: ([UInt8]) throws(BackupError) -> Void) throws(BackupError) {
        guard header.kind == .file else { return }
        var left = header.size
        while left > 0 {
            let piece = try read(min(left, 1 << 20))
            try consume(piece)
            left -= piece.count
        }
        let remainder = header.size % TarHeader.blockSize
        if remainder != 0 { _ = try read(TarHeader.blockSize - remainder) }
    }

    private func read(_ count: Int) throws(BackupError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read: Int
            do {
                read = try bytes.withUnsafeMutableBytes { raw in
                    try Posix.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]), offset: offset + filled)
                }
            } catch {
                throw BackupError("cannot read \(path): \(error)")
            }
            guard read > 0 else { throw BackupError("\(path) ends in the middle of an entry: it is truncated") }
            filled += read
        }
        offset += count
        return bytes
    }
}
