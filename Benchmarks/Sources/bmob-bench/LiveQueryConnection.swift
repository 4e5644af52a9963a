/// One subscriber of the live-query benchmark: a sync WebSocket with one live query of one group, where it is in
/// the setup, and which writes its results have shown it. Owned by the receive loop's thread.
final class LiveQueryConnection {
    /// Where the connection is in its life.
    enum State {
        /// Not started yet.
        case idle
        /// TCP connect for the WebSocket upgrade in progress.
        case upgradeConnecting
        /// Upgrade request sent; reading the 101 response.
        case upgradeReading
        /// `Connect` and `ModifyQuerySet` sent; waiting for the query's first `QueryUpdated`.
        case subscribing
        /// The first result arrived: counting the writes later results show.
        case subscribed
        /// Closed after an error (counted once, when it happened).
        case failed

        /// Whether the connection still holds a setup slot.
        var isSettingUp: Bool {
            switch self {
            case .upgradeConnecting, .upgradeReading, .subscribing: true
            case .idle, .subscribed, .failed: false
            }
        }
    }

    /// Its index among the benchmark's connections, and its selector token.
    let token: Int
    /// The group its query selects.
    let group: Int
    var state = State.idle
    /// The socket, or -1.
    var fd: Int32 = -1
    /// The upgrade's `Sec-WebSocket-Key`, kept until the response is checked.
    var key = ""
    /// Bytes received and not yet used: the HTTP response during setup, a partial frame afterwards.
    var inbox: [UInt8] = []
    /// Bytes to send that the socket did not take yet.
    var outbox: [UInt8] = []
    /// Whether the selector watches for writability.
    var watchesWritable = false
    /// When `ModifyQuerySet` went out (monotonic nanoseconds).
    var subscribeSentAt: UInt64 = 0
    /// Measured writes seen in this connection's results so far, so that each counts once.
    var seen: Set<Int> = []

    /// A connection not yet started.
    ///
    /// - Parameters:
    ///   - token: its index among the benchmark's connections.
    ///   - group: the group its query selects.
    init(token: Int, group: Int) {
        self.token = token
        self.group = group
    }
}
