/// The transport side of one benchmark subscriber: its socket, the bytes in and out, and whether the selector
/// watches it for writability. Each benchmark's connection holds one; ``ManyWebSocketClient`` drives it. Owned
/// by the receive loop's thread.
final class BenchmarkWebSocket {
    /// Its index among the benchmark's connections, and its selector token.
    let token: Int
    /// The socket, or -1.
    var fd: Int32 = -1
    /// The upgrade's `Sec-WebSocket-Key`, kept until the response is checked.
    var key = ""
    /// Bytes received and not yet used: an HTTP response during setup, a partial frame afterwards.
    var inbox: [UInt8] = []
    /// Bytes to send that the socket did not take yet.
    var outbox: [UInt8] = []
    /// Whether the selector watches for writability.
    var watchesWritable = false

    /// A socket not yet opened.
    ///
    /// - Parameter token: its index among the benchmark's connections.
    init(token: Int) {
        self.token = token
    }
}
