/// How much of the journal an app keeps (its history retention): every change, the newest `keepChanges` changes
/// of each object, changes younger than `keepDays`, or both bounds at once.
///
/// Pruning (``StoreCoreWriteTransaction/pruneJournal(_:now:grace:limit:)``) never removes the newest entry of
/// the journal (its `seq` numbers the next one on SQLite) nor entries younger than a grace period, so realtime
/// feeds and other server nodes, which read the journal moments after each commit, never miss an entry. The
/// relation entries written with a kept change (a delete's removed relations, which restore brings back) stay
/// with it.
package struct JournalRetention: Sendable, Equatable {
    /// The most changes (`create`, `update`, `delete`) kept per object; `nil` for no bound.
    package var keepChanges: Int?
    /// The most days an entry is kept; `nil` for no bound.
    package var keepDays: Int?

    /// Keeps everything.
    package static let all = JournalRetention()

    /// Makes a retention value.
    package init(keepChanges: Int? = nil, keepDays: Int? = nil) {
        self.keepChanges = keepChanges
        self.keepDays = keepDays
    }

    /// Whether anything is ever pruned.
    package var prunes: Bool { keepChanges != nil || keepDays != nil }
}
