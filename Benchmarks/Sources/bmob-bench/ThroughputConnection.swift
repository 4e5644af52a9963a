/// One connection of a ``ThroughputLoad``: a keep-alive HTTP connection or a sync WebSocket, with its requests in
/// flight. Owned by the load's thread.
final class ThroughputConnection {
    /// The socket, or -1 once closed.
    var fd: Int32
    /// Bytes received and not yet used.
    var inbox: [UInt8] = []
    /// Bytes to send that the socket did not take yet.
    var outbox: [UInt8] = []
    /// When each request in flight was sent (monotonic nanoseconds), oldest first: answers come in order, on
    /// HTTP/1.1 by definition and on a sync socket because its mutations run one at a time in arrival order.
    var sentTimes: [UInt64] = []
    /// The next mutation's request id on this socket.
    var nextRequestId = 1

    /// - Parameter fd: a connected socket (upgraded and `Connect`ed for mutations).
    init(fd: Int32) {
        self.fd = fd
    }
}
