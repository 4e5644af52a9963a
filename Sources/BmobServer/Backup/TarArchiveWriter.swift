import BmobCrypto
import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a ustar archive to a file it creates, and remembers each entry's size and SHA-256 for the backup's
/// closing manifest (``DataFolderBackup``). Blocking; one thread at a time.
final class TarArchiveWriter {
    /// An entry written: its name, size and SHA-256 in lowercase hex.
    struct Written {
        var name: String
        var size: Int
        var sha256: String
    }

    private let fd: Int32
    private let path: String
    private(set) var entries: [Written] = []
    private(set) var bytesWritten = 0
    private var closed = false

    /// Creates the archive file `path`, which must not exist, readable by its owner only: it holds the apps'
    /// keys, the shared secrets and every user's password hash.
    init(creating path: String) throws(BackupError) {
        do {
            fd = try Posix.createForWriting(path)
        } catch {
            throw BackupError("cannot create \(path): \(error)")
        }
        fchmod(fd, 0o600)
        self.path = path
    }

    deinit {
        if !closed { Posix.close(fd) }
    }

    /// Adds a file entry holding `bytes`.
    func add(name: String, bytes: [UInt8], modificationTime: Int) throws(BackupError) {
        try write(TarHeader(name: name, size: bytes.count, modificationTime: modificationTime).encoded())
        try write(bytes)
        try pad(bytes.count)
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        entries.append(Written(name: name, size: bytes.count, sha256: Hex.encode(hasher.finalize())))
    }

    /// Adds a file entry copied from the file at `source`: exactly the size it had when opened, so a file that
    /// grows meanwhile is cut there and one that shrinks is an error.
    func add(name: String, copying source: String, modificationTime: Int) throws(BackupError) {
        let input: Int32
        let size: Int
        do {
            input = try Posix.openForReading(source)
            size = try Posix.fileSize(input)
        } catch {
            throw BackupError("cannot read \(source): \(error)")
        }
        defer { Posix.close(input) }
        try write(TarHeader(name: name, size: size, modificationTime: modificationTime).encoded())
        var hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        while copied < size {
            let wanted = min(buffer.count, size - copied)
            let read: Int
            do {
                read = try buffer.withUnsafeMutableBytes { raw in
                    try Posix.pread(input, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), offset: copied)
                }
            } catch {
                throw BackupError("cannot read \(source): \(error)")
            }
            guard read > 0 else { throw BackupError("\(source) shrank while it was copied") }
            try buffer.withUnsafeBytes { raw in
                Result { () throws(BackupError) in try write(UnsafeRawBufferPointer(rebasing: raw[..<read])) }
            }.get()
            hasher.update(buffer[..<read])
            copied += read
        }
        try pad(size)
        entries.append(Written(name: name, size: size, sha256: Hex.encode(hasher.finalize())))
    }

    /// Adds a folder entry.
    func addDirectory(name: String, modificationTime: Int) throws(BackupError) {
        try write(TarHeader(name: name, size: 0, kind: .directory, modificationTime: modificationTime).encoded())
    }

    /// Writes the two zero blocks that end an archive, flushes the file to the disk and closes it.
    func finish() throws(BackupError) {
        try write([UInt8](repeating: 0, count: TarHeader.blockSize * 2))
        do {
            try Posix.synchronize(fd)
        } catch {
            throw BackupError("cannot flush \(path): \(error)")
        }
        Posix.close(fd)
        closed = true
    }

    private func pad(_ size: Int) throws(BackupError) {
        let remainder = size % TarHeader.blockSize
        if remainder != 0 { try write([UInt8](repeating: 0, count: TarHeader.blockSize - remainder)) }
    }

    private func write(_ bytes: [UInt8]) throws(BackupError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(BackupError) in try write(buffer) } }.get()
    }

    private func write(_ buffer: UnsafeRawBufferPointer) throws(BackupError) {
        do {
            try Posix.writeAll(fd, buffer)
        } catch {
            throw BackupError("cannot write \(path): \(error)")
        }
        bytesWritten += buffer.count
    }
}
