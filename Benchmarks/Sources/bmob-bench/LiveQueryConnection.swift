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

    /// Its socket and the bytes in and out; its token is its index among the benchmark's connections.
    let socket: BenchmarkWebSocket
    /// The group its query selects.
    let group: Int
    var state = State.idle
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
        socket = BenchmarkWebSocket(token: token)
        self.group = group
    }
}
