package import BmobIO
import BmobWire
package import BmobServerCodecs

/// How an ``HTTPServer`` listens and what it tolerates.
package struct HTTPServerConfiguration: Sendable {
    /// Numeric host to bind (`127.0.0.1`, `0.0.0.0`, `::`); `localhost` means `127.0.0.1`.
    package var host: String
    /// Port to bind; 0 picks a free one (see ``HTTPServer/localAddress``).
    package var port: Int
    /// Event loops, each with its own `SO_REUSEPORT` listener; defaults to one per core.
    package var loopCount: Int
    /// The selector the loops use.
    package var selectorKind: SelectorKind
    /// Header and default body limits.
    package var limits: HTTPRequestDecoder.Limits
    /// Time allowed to receive a complete head: from accept for a connection's first request (a connection
    /// that sends nothing in that time is closed), from its first byte for a later one (408 after it).
    package var headerTimeout: Duration
    /// Time allowed between two pieces of a request body (408 after it).
    package var bodyTimeout: Duration
    /// Time a keep-alive connection may sit idle between requests before it is closed.
    package var idleTimeout: Duration
    /// Open connections at most; more are answered 503 and closed. When the server is full, a newcomer is
    /// still admitted by closing the oldest connection on its loop that has not sent a complete request head
    /// yet, so that clients which never send anything cannot keep real requests (`/health`) out.
    package var maxConnections: Int
    /// Open connections at most from one client (see ``BmobIO/ClientAddress``: an IPv4 address or an IPv6
    /// /64), WebSockets included; more are answered 503 and closed. Keeps one client from holding more than
    /// its share of ``maxConnections``.
    package var maxConnectionsPerAddress: Int
    /// How long shutdown waits for in-flight requests before closing their connections (real time, whatever
    /// the ``clock``: shutdown always ends).
    package var shutdownGracePeriod: Duration
    /// What the loops' timers, and so every timeout of the server, are measured against: the system clock, or
    /// a ``BmobIO/ManualClock`` that a test advances instead of waiting.
    package var clock: EventLoopClock

    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        loopCount: Int = EventLoopGroup.coreCount,
        selectorKind: SelectorKind = .platformDefault,
        limits: HTTPRequestDecoder.Limits = HTTPRequestDecoder.Limits(),
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(60),
        maxConnections: Int = 10_000,
        maxConnectionsPerAddress: Int = 1000,
        shutdownGracePeriod: Duration = .seconds(10),
        clock: EventLoopClock = .system
    ) {
        self.host = host
        self.port = port
        self.loopCount = loopCount
        self.selectorKind = selectorKind
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.shutdownGracePeriod = shutdownGracePeriod
        self.clock = clock
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to zero.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
