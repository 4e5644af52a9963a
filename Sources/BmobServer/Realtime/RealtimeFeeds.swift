import BmobIO

/// The server's journal feeds: one ``RealtimeJournalFeed`` per app that a door has asked about, each reading
/// in a child task of ``run()``, which the server runs beside its HTTP service.
///
/// Every node of a cluster runs its own feeds over the shared journal, so no event depends on a broadcast
/// between nodes.
package final class RealtimeFeeds: Sendable {
    private struct State {
        var feeds: [String: RealtimeJournalFeed] = [:]
        var stopped = false
        var running = false
    }

    private let state = LockedValue(State())
    private let logger: Logger
    /// Feeds made and not yet taken by ``run()``: one element per app, so the buffer needs no other bound.
    private let started:
        (stream: AsyncStream<RealtimeJournalFeed>, continuation: AsyncStream<RealtimeJournalFeed>.Continuation)

    /// No feeds yet.
    package init(logger: Logger) {
        self.logger = logger
        self.started = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// The app's feed, made on first use (it reads once ``run()`` runs); `nil` after ``shutdown()``.
    package func feed(for runtime: AppRuntime) -> RealtimeJournalFeed? {
        let id = runtime.app.applicationId
        let (feed, created): (RealtimeJournalFeed?, Bool) = state.withLock { state in
            if state.stopped { return (nil, false) }
            if let feed = state.feeds[id] { return (feed, false) }
            let feed = RealtimeJournalFeed(runtime: runtime, logger: logger)
            state.feeds[id] = feed
            return (feed, true)
        }
        if let feed, created { started.continuation.yield(feed) }
        return feed
    }

    /// Each app's journal lag (``RealtimeJournalFeed/lag``), for feeds some door listens through.
    package var journalLags: [(applicationId: String, lag: Int64)] {
        let feeds = state.withLock { $0.feeds }
        return feeds.compactMap { id, feed in feed.lag.map { (id, $0) } }.sorted { $0.applicationId < $1.applicationId }
    }

    /// The app's feed if ``feed(for:)`` made one; never makes one (for interest that ends).
    package func existingFeed(appId: String) -> RealtimeJournalFeed? {
        state.withLock { $0.feeds[appId] }
    }

    /// Runs every feed, each as a child task, until ``shutdown()`` or cancellation; returns once all have
    /// ended. Call once.
    package func run() async {
        let first = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        precondition(first, "RealtimeFeeds.run() called twice")
        await withDiscardingTaskGroup { group in
            // Ends when `shutdown()` finishes the stream or the task is cancelled; cancellation reaches the
            // feeds' tasks too.
            for await feed in started.stream {
                group.addTask { await feed.run() }
            }
        }
    }

    /// Stops every feed and ends ``run()``; later ``feed(for:)`` calls get `nil`. Safe to call more than once.
    package func shutdown() {
        let all: [RealtimeJournalFeed] = state.withLock { state in
            state.stopped = true
            return Array(state.feeds.values)
        }
        started.continuation.finish()
        for feed in all {
            feed.stop()
        }
    }
}
