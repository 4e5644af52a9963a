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

    /// Committed transactions by how many writes they held: index `i` counts groups of at most
    /// ``groupSizeBounds``[i] writes (and more than the previous bound); the last index, larger groups.
    package var groupSizes = [Int](repeating: 0, count: StoreWriterStatistics.groupSizeBounds.count + 1)

    /// Upper bounds of ``groupSizes``' buckets.
    package static let groupSizeBounds = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]

    package init() {}

    /// Counts a committed transaction of `size` writes.
    package mutating func recordGroup(size: Int) {
        let index = Self.groupSizeBounds.firstIndex { size <= $0 } ?? Self.groupSizeBounds.count
        groupSizes[index] += 1
    }
}
