#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Android)
/// A non-blocking TCP client socket, owned by one I/O thread (not `Sendable`); closed in `deinit`.
final class TCPSocket {
    /// What a read produced.
    enum ReadResult {
        /// This many bytes were stored.
        case bytes(Int)
        /// Nothing is available now.
        case wouldBlock
        /// The peer closed its side.
        case endOfStream
    }

    /// The descriptor.
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Resolves `host` and connects to the first address that answers before `deadline`.
    ///
    /// - Parameters:
    ///   - host: a host name or IP address (IPv6 without brackets).
    ///   - port: the TCP port.
    ///   - deadline: when to give up.
    ///   - wakePipe: polled too, so that `shouldStop` is checked when another thread closes the transport.
    ///   - shouldStop: whether the connection was abandoned.
    /// - Returns: the connected socket, non-blocking, with `TCP_NODELAY`.
    /// - Throws: ``WebSocketTransportError`` with `resolutionFailed`, `connectionFailed`, `timedOut` or
    ///   `cancelled`.
    static func connect(
        host: String, port: Int, deadline: ContinuousClock.Instant, wakePipe: WakePipe, shouldStop: () -> Bool
    ) throws(WebSocketTransportError) -> TCPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw WebSocketTransportError(.resolutionFailed, "cannot resolve host: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var failure = WebSocketTransportError(.connectionFailed, "no address to connect to")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            if shouldStop() { throw WebSocketTransportError(.cancelled, "closed while connecting") }
            do {
                return try attempt(current.pointee, deadline: deadline, wakePipe: wakePipe, shouldStop: shouldStop)
            } catch {
                if error.code == .timedOut || error.code == .cancelled { throw error }
                failure = error
            }
        }
        throw failure
    }

    /// One address: a non-blocking `connect`, then `poll` for writability.
    private static func attempt(
        _ address: addrinfo, deadline: ContinuousClock.Instant, wakePipe: WakePipe, shouldStop: () -> Bool
    ) throws(WebSocketTransportError) -> TCPSocket {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else {
            throw WebSocketTransportError(.connectionFailed, "socket: \(POSIXSystem.describe(errno))")
        }
        let socket = TCPSocket(descriptor: descriptor)
        guard POSIXSystem.makeNonBlocking(descriptor) else {
            throw WebSocketTransportError(.connectionFailed, "fcntl: \(POSIXSystem.describe(errno))")
        }
        var result: Int32
        repeat {
            result = posixConnect(descriptor, address.ai_addr, address.ai_addrlen)
        } while result < 0 && errno == EINTR
        if result < 0 {
            guard errno == EINPROGRESS else {
                throw WebSocketTransportError(.connectionFailed, "connect: \(POSIXSystem.describe(errno))")
            }
            try socket.waitUntilWritable(deadline: deadline, wakePipe: wakePipe, shouldStop: shouldStop)
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 else {
                throw WebSocketTransportError(.connectionFailed, "connect: \(POSIXSystem.describe(code))")
            }
        }
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    /// Waits until a connecting socket is writable.
    private func waitUntilWritable(
        deadline: ContinuousClock.Instant, wakePipe: WakePipe, shouldStop: () -> Bool
    ) throws(WebSocketTransportError) {
        while true {
            if shouldStop() { throw WebSocketTransportError(.cancelled, "closed while connecting") }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = POSIXSystem.milliseconds(until: deadline)
            let ready = POSIXSystem.poll(&descriptors, timeout: timeout)
            if ready < 0 { throw WebSocketTransportError(.connectionFailed, "poll: \(POSIXSystem.describe(errno))") }
            if descriptors[0].revents != 0 { return }
            if descriptors[1].revents != 0 { wakePipe.drain() }
            if ready == 0 && timeout == 0 { throw WebSocketTransportError(.timedOut, "connect timed out") }
        }
    }

    /// Reads what is available into `buffer`.
    ///
    /// - Parameter buffer: where to store bytes; its count is the most read.
    /// - Returns: the outcome.
    /// - Throws: ``WebSocketTransportError`` with `connectionLost` on a socket error.
    func read(into buffer: inout [UInt8]) throws(WebSocketTransportError) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw WebSocketTransportError(.connectionLost, "recv: \(POSIXSystem.describe(errno))")
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes now, without raising `SIGPIPE`.
    ///
    /// - Parameter bytes: the bytes to write.
    /// - Returns: how many were written; 0 when the socket is full.
    /// - Throws: ``WebSocketTransportError`` with `connectionLost` on a socket error.
    func write(_ bytes: ArraySlice<UInt8>) throws(WebSocketTransportError) -> Int {
        while true {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: throw WebSocketTransportError(.connectionLost, "send: \(POSIXSystem.describe(errno))")
            }
        }
    }

    /// Closes the sending side (TCP FIN) and keeps reading possible.
    func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }
}

/// `connect(2)`, named so it does not clash with ``TCPSocket/connect(host:port:deadline:wakePipe:shouldStop:)``.
private func posixConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
#endif
