#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP connection to an SMTP server, for ``SMTPMailProvider``: it runs only on the provider's own
/// thread pool, never on an event loop. Every call waits at most `timeout` seconds.
///
/// Not `Sendable`: one delivery owns it from connect to close, on one thread.
final class SMTPConnection {
    private let fd: Int32
    private let timeout: Double

    /// Resolves `host` and connects to the first address that answers.
    ///
    /// - Throws: ``SMTPError`` when the name does not resolve or no address accepts the connection in time.
    init(host: String, port: Int, timeout: Double) throws(SMTPError) {
        self.timeout = timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw SMTPError("cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            switch Self.connect(info.pointee, timeout: timeout) {
            case .success(let socket):
                fd = socket
                return
            case .failure(let message):
                lastError = message
            }
        }
        throw SMTPError("cannot connect to \(host):\(port): \(lastError)")
    }

    deinit {
        close(fd)
    }

    /// Sends every byte.
    func write(_ bytes: [UInt8]) throws(SMTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if os(Linux)
                    send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                    send(fd, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw SMTPError(
                    errno == EAGAIN || errno == EWOULDBLOCK ? "timed out sending" : "send failed (errno \(errno))")
            }
            offset += sent
        }
    }

    /// The next bytes the server sent; empty when it closed the connection.
    func read() throws(SMTPError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR { continue }
            throw SMTPError(
                errno == EAGAIN || errno == EWOULDBLOCK
                    ? "timed out waiting for the server" : "receive failed (errno \(errno))")
        }
    }

    private enum Attempt {
        case success(Int32)
        case failure(String)
    }

    /// A connected blocking socket with send and receive timeouts, or why there is none.
    private static func connect(_ info: addrinfo, timeout: Double) -> Attempt {
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { return .failure("socket failed (errno \(errno))") }
        #if !os(Linux)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        #if canImport(Glibc)
            let started = Glibc.connect(fd, info.ai_addr, info.ai_addrlen)
        #else
            let started = Darwin.connect(fd, info.ai_addr, info.ai_addrlen)
        #endif
        if started != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                close(fd)
                return .failure("connect failed (errno \(code))")
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, Int32(timeout * 1000))
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length)
            guard ready == 1, pending == 0 else {
                close(fd)
                return .failure(ready == 1 ? "connect failed (errno \(pending))" : "connect timed out")
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        var limit = timeval(
            tv_sec: .init(Int(timeout)), tv_usec: .init(Int((timeout - Double(Int(timeout))) * 1_000_000)))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return .success(fd)
    }
}
