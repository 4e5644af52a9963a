package import BmobStore
import Synchronization

/// Applies each app's history retention (``App/history``): after an app's operation, at most once per
/// ``intervalSeconds``, a detached task deletes the journal entries the retention no longer keeps, in batches
/// of ``batchSize`` (one write each, so other writes interleave). A server that gets no requests prunes nothing,
/// like everything else it does.
///
/// Entries younger than ``graceSeconds`` and the journal's newest entry always stay
/// (``StoreCoreWriteTransaction/pruneJournal(_:now:graceCutoff:limit:)``): realtime feeds and other server
/// nodes read entries moments after their commit, so pruning never takes one from under them. Every node prunes;
/// deleting the same rows twice is harmless.
package final class HistoryPruner: Sendable {
    /// The least time between two prunings of one app.
    package let intervalSeconds: Int
    /// How old an entry must be before retention may remove it.
    package let graceSeconds: Int
    /// Entries deleted per write.
    package static let batchSize = 5_000
    private let clock: ServerClock
    private let logger: Logger
    /// The time each app was last pruned (or is being pruned), milliseconds, by Application ID.
    private let lastRun = Mutex<[String: Int64]>([:])

    package init(intervalSeconds: Int, graceSeconds: Int, clock: ServerClock, logger: Logger) {
        self.intervalSeconds = intervalSeconds
        self.graceSeconds = graceSeconds
        self.clock = clock
        self.logger = logger
    }

    /// Starts a pruning of the context's app when its retention prunes and the last one is old enough; never waits.
    package func pruneSoon(_ context: AppContext) {
        let retention = context.app.history
        guard retention.prunes else { return }
        let now = clock.nowMilliseconds()
        let applicationId = context.app.applicationId
        let due = lastRun.withLock { runs in
            if let last = runs[applicationId], now - last < Int64(intervalSeconds) * 1000 { return false }
            runs[applicationId] = now
            return true
        }
        guard due else { return }
        let store = context.store
        Task.detached { [self] in
            do {
                let removed = try await prune(store, retention)
                if removed > 0 { logger.info("history: pruned \(removed) journal entries of app \(applicationId)") }
            } catch {
                logger.error("history: pruning the journal of app \(applicationId) failed: \(error)")
            }
        }
    }

    /// Deletes what `retention` no longer keeps, batch by batch; returns how many entries went.
    package func prune(_ store: any Store, _ retention: JournalRetention) async throws -> Int {
        guard retention.prunes else { return 0 }
        var total = 0
        while true {
            let now = clock.nowMilliseconds()
            let graceCutoff = now - Int64(graceSeconds) * 1000
            let removed = try await store.write(caller: "history retention", rerunnable: true) { transaction in
                try transaction.pruneJournal(retention, now: now, graceCutoff: graceCutoff, limit: Self.batchSize)
            }
            total += removed
            if removed < Self.batchSize { return total }
        }
    }
}
