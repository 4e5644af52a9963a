import BmobServerCodecs
/// How much work one query may do, so that no query can hold a reader for long: a query over a limit ends with
/// ``StoreError/Code/invalidQuery`` (Bmob 102) saying so, and its reader serves the next read at once.
///
/// Work is counted in steps: the engine's own units (SQLite virtual-machine instructions, counted through
/// `sqlite3_progress_handler`) and, for `$regex`, ``BoundedRegex`` steps (about one per live automaton thread
/// per character). The defaults are far above what ordinary queries take: a `$regex` of a few dozen instructions
/// over a 1 MB value takes a few million steps, a scan of a million rows some tens of millions.
package struct StoreWorkLimits: Sendable, Hashable {
    /// Default of ``regexSteps``: 100 million, a fraction of a second.
    package static let defaultRegexSteps = 100_000_000
    /// Default of ``queryWork``: 1 billion, a few seconds.
    package static let defaultQueryWork = 1_000_000_000

    /// Most steps one `$regex` evaluation (one pattern against one value) may take.
    package var regexSteps: Int
    /// Most steps one read (a find with its count, an aggregate, with their sub-queries and `$regex`
    /// evaluations) may take on a reader. Writes are not limited by it.
    package var queryWork: Int

    /// Limits with the defaults unless given; values below 1 are taken as 1.
    package init(regexSteps: Int = defaultRegexSteps, queryWork: Int = defaultQueryWork) {
        self.regexSteps = max(1, regexSteps)
        self.queryWork = max(1, queryWork)
    }
}
