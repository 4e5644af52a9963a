import BmobIO

/// What a benchmark built on ``ManyWebSocketClient`` decides for itself: what its connections' readiness, bytes
/// and text messages mean in the protocol it speaks, and what a lost connection does to its counts. Every
/// connection is named by its token, its index among the benchmark's connections.
protocol ManyWebSocketClientDelegate: AnyObject {
    /// The selector reported `events` for connection `token`.
    func handleEvents(token: Int, events: SelectorEventSet)
    /// Connection `token` read `bytes` at `now` (monotonic nanoseconds).
    func consume(token: Int, bytes: UnsafeRawBufferPointer, now: UInt64)
    /// The server closed connection `token` (end of file).
    func closedByServer(token: Int)
    /// Connection `token` received a complete text message `payload` in a frame of `frameBytes` bytes, header
    /// included, read at `now`.
    func handleTextMessage(token: Int, payload: UnsafeRawBufferPointer, frameBytes: Int, now: UInt64)
    /// Closes connection `token` after an error, counting it once under `kind` (``ManyWebSocketClient/discard(_:)``
    /// does the closing).
    func drop(token: Int, kind: String, detail: String)
}
