import Synchronization

/// The server's realtime events: one ``RealtimeFeed`` per app that has ever had a listener, each tailing its
/// app's journal. Front doors (the socket.io gateway; live queries and channels later) register listeners
/// through the feeds.
package final class RealtimeHub: Sendable {
    private let feeds = Mutex<[String: RealtimeFeed]>([:])
    private let stopped = Mutex(false)
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// The app's feed, started on first use; `nil` after ``shutdown()``.
    package func feed(for runtime: AppRuntime) -> RealtimeFeed? {
        let id = runtime.app.applicationId
        let (feed, created): (RealtimeFeed?, Bool) = feeds.withLock { feeds in
            if stopped.withLock({ $0 }) { return (nil, false) }
            if let feed = feeds[id] { return (feed, false) }
            let feed = RealtimeFeed(runtime: runtime, logger: logger)
            feeds[id] = feed
            return (feed, true)
        }
        if created { feed?.start() }
        return feed
    }

    /// Stops every feed.
    package func shutdown() {
        let all: [RealtimeFeed] = feeds.withLock { feeds in
            stopped.withLock { $0 = true }
            return Array(feeds.values)
        }
        for feed in all {
            feed.stop()
        }
    }
}
