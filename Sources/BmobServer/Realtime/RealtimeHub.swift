import Synchronization

/// The server's realtime events: one ``RealtimeFeed`` per app that has ever had a listener, each tailing its
/// app's journal. Front doors (the socket.io gateway; live queries and channels later) register listeners
/// through the feeds.
package final class RealtimeHub: Sendable {
    private struct State {
        var feeds: [String: RealtimeFeed] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// The app's feed, started on first use; `nil` after ``shutdown()``.
    package func feed(for runtime: AppRuntime) -> RealtimeFeed? {
        let id = runtime.app.applicationId
        let (feed, created): (RealtimeFeed?, Bool) = state.withLock { state in
            if state.stopped { return (nil, false) }
            if let feed = state.feeds[id] { return (feed, false) }
            let feed = RealtimeFeed(runtime: runtime, logger: logger)
            state.feeds[id] = feed
            return (feed, true)
        }
        if created { feed?.start() }
        return feed
    }

    /// The app's feed if ``feed(for:)`` made one; never starts a feed (for listeners leaving).
    package func existingFeed(appId: String) -> RealtimeFeed? {
        state.withLock { $0.feeds[appId] }
    }

    /// Stops every feed.
    package func shutdown() {
        let all: [RealtimeFeed] = state.withLock { state in
            state.stopped = true
            return Array(state.feeds.values)
        }
        for feed in all {
            feed.stop()
        }
    }
}
