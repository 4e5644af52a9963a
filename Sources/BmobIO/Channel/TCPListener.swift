import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on one event loop. Several loops can each own a listener on the same port with
/// `SO_REUSEPORT`, and the kernel spreads new connections across them.
///
/// Loop-confined: create, start and close it on ``loop``.
package final class TCPListener: Selectable {
    package let loop: EventLoop
    package let fd: Int32
    /// The bound address (with the real port when port 0 was asked for).
    package let localAddress: SocketAddress
    /// Called on the loop with each accepted non-blocking socket; the callee owns the descriptor.
    private let onAccept: (Int32, SocketAddress) -> Void
    private var closed = false
    private var registered = false
    private var paused = false
    /// Connections accepted per readiness event before yielding to other descriptors.
    private static let acceptsPerEvent = 64

    /// Binds and listens. Must be called on `loop`.
    package init(
        loop: EventLoop,
        address: SocketAddress,
        reusePort: Bool,
        backlog: Int32 = 1024,
        onAccept: @escaping (Int32, SocketAddress) -> Void
    ) throws(IOError) {
        let fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
        do {
            try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            if reusePort {
                try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEPORT, value: 1)
            }
            try Posix.bind(fd, to: address)
            try Posix.listen(fd, backlog: backlog)
            self.localAddress = try Posix.localAddress(fd)
        } catch {
            Posix.close(fd)
            throw error
        }
        self.fd = fd
        self.loop = loop
        self.onAccept = onAccept
    }

    /// Starts accepting.
    package func start() throws(IOError) {
        loop.assertInEventLoop()
        try loop.register(fd: fd, interest: .readable, handler: self)
        registered = true
    }

    package func selectorEvent(_ events: SelectorEventSet) {
        for _ in 0..<Self.acceptsPerEvent where !closed && !paused {
            do {
                switch try Posix.acceptNonBlocking(fd) {
                case .wouldBlock:
                    return
                case .processed(let (client, address)):
                    try? Posix.setOption(client, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
                    onAccept(client, address)
                }
            } catch let error where error.code == .tooManyFiles || error.code == Self.fileTableFull {
                // Out of descriptors: stop accepting for a moment instead of spinning on the ready listener.
                pauseAccepting(forNanoseconds: 100_000_000)
                return
            } catch {
                // ECONNABORTED and friends concern one connection, not the listener.
                continue
            }
        }
    }

    private static let fileTableFull = IOError.Code(rawValue: ENFILE)

    private func pauseAccepting(forNanoseconds delay: UInt64) {
        guard registered, !paused else { return }
        paused = true
        try? loop.reregister(fd: fd, interest: [])
        loop.scheduleTimer(afterNanoseconds: delay) { [weak self] in
            guard let self, !self.closed else { return }
            self.paused = false
            try? self.loop.reregister(fd: self.fd, interest: .readable)
        }
    }

    /// Stops listening and closes the socket.
    package func close() {
        guard !closed else { return }
        closed = true
        if registered {
            loop.deregister(fd: fd)
        }
        Posix.close(fd)
    }
}

@available(*, unavailable, message: "a TCPListener is confined to its event loop")
extension TCPListener: Sendable {}
