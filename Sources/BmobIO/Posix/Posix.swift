import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every system call BmobIO makes goes through here: `EINTR` is retried, `EAGAIN` becomes
/// ``IOResult/wouldBlock``, `EBADF` and `EFAULT` are programmer errors, anything else is an ``IOError``.
package enum Posix {
    @inline(__always)
    private static func syscall(_ function: String, _ body: () -> Int) throws(IOError) -> IOResult<Int> {
        while true {
            let result = body()
            if result >= 0 { return .processed(result) }
            let error = CSystemShims_errno()
            switch error {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EBADF, EFAULT: preconditionFailure("\(function) on an invalid descriptor or buffer (errno \(error))")
            default: throw IOError(errno: error, function: function)
            }
        }
    }

    /// A call that never returns `EAGAIN` in practice; it is reported as an error if it does.
    @inline(__always)
    private static func blockingCall(_ function: String, _ body: () -> Int) throws(IOError) -> Int {
        switch try syscall(function, body) {
        case .processed(let value): return value
        case .wouldBlock: throw IOError(code: .wouldBlock, function: function)
        }
    }

    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> IOResult<Int> {
        try syscall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    package static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(IOError) -> IOResult<Int> {
        try syscall("send") { CSystemShims_send(fd, buffer.baseAddress, buffer.count) }
    }

    package static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(IOError) -> IOResult<Int> {
        try syscall("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    package static func close(_ fd: Int32) {
        // POSIX leaves the descriptor state unspecified after EINTR on close; Linux always closes it,
        // so close is never retried.
        _ = Glibc.close(fd)
    }

    package static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    package static func acceptNonBlocking(_ fd: Int32) throws(IOError) -> IOResult<(Int32, SocketAddress)> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try withUnsafeMutablePointer(to: &storage) { pointer throws(IOError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(IOError) in
                try syscall("accept") { Int(CSystemShims_accept_nonblocking(fd, address, &length)) }
            }
        }
        switch result {
        case .wouldBlock: return .wouldBlock
        case .processed(let client): return .processed((Int32(client), SocketAddress(storage: storage)))
        }
    }

    package static func socketTCP(family: Int32) throws(IOError) -> Int32 {
        Int32(try blockingCall("socket") { Int(CSystemShims_socket_tcp(family)) })
    }

    package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) throws(IOError) {
        var value = value
        _ = try blockingCall("setsockopt") {
            Int(setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)))
        }
    }

    package static func bind(_ fd: Int32, to address: SocketAddress) throws(IOError) {
        _ = try address.withSockAddr { pointer, length throws(IOError) in
            try blockingCall("bind") { Int(Glibc.bind(fd, pointer, length)) }
        }
    }

    package static func listen(_ fd: Int32, backlog: Int32) throws(IOError) {
        _ = try blockingCall("listen") { Int(Glibc.listen(fd, backlog)) }
    }

    package static func connect(_ fd: Int32, to address: SocketAddress) throws(IOError) -> IOResult<Void> {
        let result = try address.withSockAddr { pointer, length throws(IOError) in
            try syscall("connect") {
                let result = Glibc.connect(fd, pointer, length)
                if result < 0, CSystemShims_errno() == EINPROGRESS { return 0 }
                return Int(result)
            }
        }
        switch result {
        case .processed: return .processed(())
        case .wouldBlock: return .wouldBlock
        }
    }

    package static func localAddress(_ fd: Int32) throws(IOError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer throws(IOError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(IOError) in
                try blockingCall("getsockname") { Int(getsockname(fd, address, &length)) }
            }
        }
        return SocketAddress(storage: storage)
    }

    /// The pending error of a socket (`SO_ERROR`), used after a non-blocking connect completes.
    package static func socketError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length)
        return value
    }

    /// Opens the file at `path` for reading, close-on-exec. Blocking: call it on a ``ThreadPool``.
    package static func openForReading(_ path: String) throws(IOError) -> Int32 {
        Int32(try blockingCall("open") { Int(Glibc.open(path, O_RDONLY | O_CLOEXEC)) })
    }

    /// The size in bytes of the open file `fd`; fails with `EISDIR` for a directory.
    package static func fileSize(_ fd: Int32) throws(IOError) -> Int {
        var status = stat()
        _ = try blockingCall("fstat") { Int(fstat(fd, &status)) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw IOError(errno: EISDIR, function: "fstat") }
        return Int(status.st_size)
    }

    /// Reads up to `buffer.count` bytes of the file `fd` at `offset`; 0 at its end. Blocking: call it on a
    /// ``ThreadPool``.
    package static func pread(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, offset: Int
    ) throws(IOError) -> Int {
        try blockingCall("pread") { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Creates `path` for writing (it must not exist), close-on-exec, mode 0644. Blocking: call it on a
    /// ``ThreadPool``.
    package static func createForWriting(_ path: String) throws(IOError) -> Int32 {
        Int32(try blockingCall("open") { Int(Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)) })
    }

    /// Opens the existing file `path` for appending, close-on-exec. Blocking: call it on a ``ThreadPool``.
    package static func openForAppending(_ path: String) throws(IOError) -> Int32 {
        Int32(try blockingCall("open") { Int(Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) })
    }

    /// Writes all of `buffer` to the file `fd`. Blocking: call it on a ``ThreadPool``.
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(IOError) {
        var written = 0
        while written < buffer.count {
            written += try blockingCall("write") {
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
        }
    }

    /// Appends the rest of the file `input` (from its offset) to the file `output` (at its offset), inside the
    /// kernel where it can (`copy_file_range`), through a buffer where it cannot. Returns the bytes copied.
    /// Blocking: call it on a ``ThreadPool``.
    package static func copyRest(from input: Int32, to output: Int32) throws(IOError) -> Int {
        var copied = 0
        while true {
            let result = CSystemShims_copy_file_range(input, output, 1 << 30)
            if result > 0 {
                copied += result
                continue
            }
            if result == 0 { return copied }
            let error = CSystemShims_errno()
            if error == EINTR { continue }
            // Not supported between these files (another file system, an old kernel): copy through memory.
            guard error == EXDEV || error == ENOSYS || error == EINVAL || error == EOPNOTSUPP else {
                throw IOError(errno: error, function: "copy_file_range")
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let read = try blockingCall("read") { buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) } }
                if read == 0 { return copied }
                var written = 0
                while written < read {
                    written += try blockingCall("write") {
                        buffer.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, read - written) }
                    }
                }
                copied += read
            }
        }
    }

    /// Flushes the file `fd` to the disk. Blocking: call it on a ``ThreadPool``.
    package static func synchronize(_ fd: Int32) throws(IOError) {
        _ = try blockingCall("fsync") { Int(fsync(fd)) }
    }

    /// Renames `source` to `destination`, replacing it atomically.
    package static func rename(_ source: String, to destination: String) throws(IOError) {
        _ = try blockingCall("rename") { Int(Glibc.rename(source, destination)) }
    }

    /// Creates the folder `path` and its missing parents (mode 0755); an existing folder is fine.
    package static func makeDirectories(_ path: String) throws(IOError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            let result = mkdir(prefix, 0o755)
            if result != 0 {
                let error = CSystemShims_errno()
                guard error == EEXIST else { throw IOError(errno: error, function: "mkdir") }
            }
            prefix += "/"
        }
    }

    /// Removes the file `path`; `false` when there was none.
    @discardableResult
    package static func removeFile(_ path: String) throws(IOError) -> Bool {
        if unlink(path) == 0 { return true }
        let error = CSystemShims_errno()
        guard error == ENOENT else { throw IOError(errno: error, function: "unlink") }
        return false
    }

    /// The size of the regular file at `path`; `nil` when there is none.
    package static func regularFileSize(atPath path: String) throws(IOError) -> Int? {
        var status = stat()
        if stat(path, &status) != 0 {
            let error = CSystemShims_errno()
            guard error == ENOENT || error == ENOTDIR else { throw IOError(errno: error, function: "stat") }
            return nil
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Nanoseconds on the monotonic clock.
    package static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
