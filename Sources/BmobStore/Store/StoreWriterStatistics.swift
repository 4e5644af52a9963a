/// Writer counters, for tests and metrics: they show group commit at work (``committedWrites`` >
/// ``transactions`` when several writes shared a COMMIT). Both engines' writers keep them.
package struct StoreWriterStatistics: Sendable, Equatable {
    /// Writes accepted into the queue.
    package var enqueuedWrites = 0
    /// Writes whose transaction committed.
    package var committedWrites = 0
    /// Writes that failed: their body threw, or their transaction did not commit.
    package var failedWrites = 0
    /// Transactions committed (one per group).
    package var transactions = 0
    /// Transactions rolled back because a write without a savepoint failed after changing the database;
    /// their other writes ran again.
    package var rerunGroups = 0

    package init() {}
}
