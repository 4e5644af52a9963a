package import BmobIO
import BmobWire
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on BmobIO: one event loop per core, each with its own `SO_REUSEPORT` listener, keep-alive,
/// pipelining, limits and timeouts, and graceful shutdown.
///
/// ```swift
/// let server = try await HTTPServer.start(configuration: .init(port: 0), responder: router)
/// print(server.localAddress)
/// try await server.run()   // until the task is cancelled, then drains and stops
/// ```
package final class HTTPServer: Sendable {
    /// State every connection on every loop reads.
    final class Shared: Sendable {
        let configuration: HTTPServerConfiguration
        let responder: any HTTPResponder
        /// Limits and timeouts of every connection's state machine.
        let connectionConfiguration: HTTPConnectionStateMachine.Configuration
        private let openConnections = Atomic<Int>(0)
        /// The most bytes a connection held at once for a streamed body (see ``HTTPServer/peakStreamedBufferBytes``).
        private let peakStreamedBuffer = Atomic<Int>(0)
        /// How often a streamed request body paused reading (see ``HTTPServer/streamedBodyPauses``).
        private let streamedPauses = Atomic<Int>(0)
        /// WebSocket messages queued for clients, and WebSockets closed because their client read too slowly.
        let webSocketMessagesSent = Atomic<Int>(0)
        let webSocketSlowClientCloses = Atomic<Int>(0)
        /// Open connections per client, across all loops; a client's entry goes when its count is zero.
        private let connectionsByClient = LockedValue(BoundedCounts<ClientAddress>())

        init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
            self.configuration = configuration
            self.responder = responder
            self.connectionConfiguration = HTTPConnectionStateMachine.Configuration(
                limits: configuration.limits,
                headerTimeout: configuration.headerTimeout.nanoseconds,
                bodyTimeout: configuration.bodyTimeout.nanoseconds,
                idleTimeout: configuration.idleTimeout.nanoseconds)
        }

        /// Counts a new connection unless the server is full.
        func admitConnection() -> Bool {
            let count = openConnections.add(1, ordering: .relaxed).newValue
            if count > configuration.maxConnections {
                openConnections.subtract(1, ordering: .relaxed)
                return false
            }
            return true
        }

        func releaseConnection() {
            openConnections.subtract(1, ordering: .relaxed)
        }

        /// Counts a new connection of `client` unless it already holds its share
        /// (``HTTPServerConfiguration/maxConnectionsPerAddress``).
        func admitConnection(from client: ClientAddress) -> Bool {
            let limit = configuration.maxConnectionsPerAddress
            return connectionsByClient.withLock { $0.admit(client, limit: limit) }
        }

        func releaseConnection(from client: ClientAddress) {
            connectionsByClient.withLock { $0.release(client) }
        }

        var connectionCount: Int { openConnections.load(ordering: .relaxed) }

        /// Notes what a connection holds for a streamed body now (kept only as a high-water mark).
        func recordStreamedBufferBytes(_ count: Int) {
            var peak = peakStreamedBuffer.load(ordering: .relaxed)
            while count > peak {
                let (exchanged, current) = peakStreamedBuffer.compareExchange(
                    expected: peak, desired: count, ordering: .relaxed)
                if exchanged { return }
                peak = current
            }
        }

        var peakStreamedBufferBytes: Int { peakStreamedBuffer.load(ordering: .relaxed) }

        func countStreamedBodyPause() {
            streamedPauses.add(1, ordering: .relaxed)
        }

        var streamedBodyPauses: Int { streamedPauses.load(ordering: .relaxed) }

    }

    private let shared: Shared
    private let group: EventLoopGroup
    private let states: [LoopBound<ServerLoopState>]
    /// The address the server listens on (the real port when port 0 was configured).
    package let localAddress: SocketAddress
    private let stopSignal = AsyncStream<Void>.makeStream()
    private let stopped = LockedValue(false)

    private init(shared: Shared, group: EventLoopGroup, states: [LoopBound<ServerLoopState>], localAddress: SocketAddress) {
        self.shared = shared
        self.group = group
        self.states = states
        self.localAddress = localAddress
    }

    /// Binds every loop's listener and starts accepting.
    ///
    /// - Throws: ``IOError`` when the address is invalid (`EINVAL`) or the port is taken (`EADDRINUSE`).
    package static func start(configuration: HTTPServerConfiguration, responder: any HTTPResponder) async throws -> HTTPServer {
        guard let requested = SocketAddress(host: configuration.host, port: UInt16(clamping: configuration.port)),
            (0...65535).contains(configuration.port)
        else {
            throw IOError(code: .invalidArgument, function: "listen on \(configuration.host):\(configuration.port)")
        }
        // Every listener sets SO_REUSEPORT, which would also let us join another process's listeners on the
        // same port. A bind first proves the port is free (and picks it when port 0 was asked for); for port 0
        // the probe stays bound until the listeners are, so that no other server can pick the same port in
        // between and share our listeners (seen as requests of one test server reaching another).
        let (address, probe) = try probeFreePort(requested)
        defer { if let probe { Posix.close(probe) } }
        let group = try EventLoopGroup(
            loopCount: configuration.loopCount, selectorKind: configuration.selectorKind, clock: configuration.clock)
        let shared = Shared(configuration: configuration, responder: responder)
        var states: [LoopBound<ServerLoopState>] = []
        do {
            for loop in group.loops {
                let state = try await loop.submit { () throws -> LoopBound<ServerLoopState> in
                    let state = ServerLoopState(loop: loop, shared: shared)
                    let listener = try TCPListener(loop: loop, address: address, reusePort: true) { fd, peer in
                        state.accepted(fd: fd, address: peer)
                    }
                    try listener.start()
                    state.listener = listener
                    return LoopBound(state, loop: loop)
                }
                states.append(state)
            }
        } catch {
            for state in states {
                try? await state.loop.submit { state.value.closeAll(); state.value.listener?.close() }
            }
            group.shutdown()
            throw error
        }
        return HTTPServer(shared: shared, group: group, states: states, localAddress: address)
    }

    /// Binds a probe socket to `address`: the bound address, and the probe itself when it must stay bound until
    /// the listeners are (port 0), else `nil` (closed already).
    ///
    /// - An explicit port is probed with a plain bind: it fails while anything listens there, which is the check.
    /// - Port 0 is probed with `SO_REUSEPORT`, so the listeners can join the still-bound probe's port; the kernel
    ///   never hands a port in use to another `bind(0)`, with or without `SO_REUSEPORT`, so the port stays ours.
    private static func probeFreePort(_ address: SocketAddress) throws(IOError) -> (SocketAddress, Int32?) {
        let fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
        do {
            // SO_REUSEADDR lets the probe succeed over TIME_WAIT connections of a server that just stopped; it
            // still fails while anything listens on the port, which is the check we want.
            try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            let holds = address.port == 0
            if holds { try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEPORT, value: 1) }
            try Posix.bind(fd, to: address)
            var bound = try Posix.localAddress(fd)
            bound.bytes = address.bytes
            if holds { return (bound, fd) }
            Posix.close(fd)
            return (bound, nil)
        } catch {
            Posix.close(fd)
            throw error
        }
    }

    /// Open connections across all loops.
    package var connectionCount: Int { shared.connectionCount }

    /// The most bytes one connection has held at once for a streamed request or response body: undecoded input,
    /// body handed to the handler and not yet taken, and output not yet written. Bounded by a few hundred KiB
    /// whatever the body's size; for tests of that bound.
    package var peakStreamedBufferBytes: Int { shared.peakStreamedBufferBytes }

    /// How many times a streamed request body paused reading because its handler was behind; for tests of the
    /// backpressure.
    package var streamedBodyPauses: Int { shared.streamedBodyPauses }

    /// WebSocket messages queued for clients so far (realtime deliveries of every door).
    package var webSocketMessagesSent: Int { shared.webSocketMessagesSent.load(ordering: .relaxed) }

    /// WebSockets closed (1008) because their client left too much output unread (realtime drops).
    package var webSocketSlowClientCloses: Int { shared.webSocketSlowClientCloses.load(ordering: .relaxed) }

    /// Serves until the calling task is cancelled or ``shutdown()`` is called, then shuts down gracefully.
    package func run() async {
        let signal = stopSignal
        await withTaskCancellationHandler {
            for await _ in signal.stream {}
        } onCancel: {
            signal.continuation.finish()
        }
        await shutdown()
    }

    /// Stops accepting, lets in-flight requests finish (up to the grace period), closes every connection
    /// and stops the loops. Safe to call more than once.
    package func shutdown() async {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        stopSignal.continuation.finish()
        guard first else { return }
        for state in states {
            try? await state.loop.submit { state.value.beginShutdown() }
        }
        let grace = ContinuousClock.now.advanced(by: shared.configuration.shutdownGracePeriod)
        while shared.connectionCount > 0, ContinuousClock.now < grace {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for state in states {
            try? await state.loop.submit { state.value.closeAll() }
        }
        group.shutdown()
    }
}
