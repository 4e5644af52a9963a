/// What a fan-out protocol tells ``FanoutBenchmark`` apart from the other: how a subscriber connects and
/// subscribes, how its packets read, and how one event is published over HTTP. Everything else (the
/// WebSocket client, the epoll loop, the phases, the writer's schedule, the result) is shared, so the
/// socket.io and the channels fan-outs are measured by the same code.
///
/// Implementations are immutable values: the writer thread builds requests while the receive loop classifies
/// packets.
protocol FanoutDialect: Sendable {
    /// A request to send on a short-lived connection before the WebSocket (socket.io 0.9's handshake, whose
    /// response names the session), or `nil` when a connection upgrades at once.
    ///
    /// - Parameter hostHeader: the `Host` header's value.
    /// - Returns: the whole request, or `nil`.
    func handshakeRequest(hostHeader: String) -> String?

    /// The WebSocket upgrade's request target.
    ///
    /// - Parameter session: the session id from the handshake, when there was one.
    /// - Returns: the path and query.
    func upgradeTarget(session: String?) -> String

    /// The text payload that subscribes, sent once the server says the connection is ready; the server's
    /// answer is classified as `.ack(id: 1)`.
    var subscribeFrame: [UInt8] { get }

    /// The text payload that answers a `.heartbeat`.
    var heartbeatReply: [UInt8] { get }

    /// Tells what a received text payload is, without a JSON parse.
    ///
    /// - Parameter payload: a text frame's payload.
    /// - Returns: the packet.
    func classify(_ payload: UnsafeRawBufferPointer) -> FanoutPacket

    /// The HTTP request that makes every subscriber receive one event carrying `seq` and `sentAt`.
    ///
    /// - Parameters:
    ///   - seq: the event's sequence number (−1 warm-up, 0 probe, from 1 measured).
    ///   - sentAt: monotonic nanoseconds, read back from each delivery.
    ///   - hostHeader: the `Host` header's value.
    /// - Returns: the whole request, body included.
    func publishRequest(seq: Int, sentAt: UInt64, hostHeader: String) -> String
}
