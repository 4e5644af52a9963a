/// One queued write, with its result type erased so that jobs of any type share the writer's queue.
struct SQLiteWriteJob: Sendable {
    /// Who makes the change, for the journal.
    var caller: String?
    /// Runs the caller's body; returns the resumption to call once the group's COMMIT succeeded.
    var perform: @Sendable (SQLiteWriteTransaction) throws -> @Sendable () -> Void
    /// Resumes the caller with an error: its own, or the group's failed COMMIT.
    var fail: @Sendable (any Error) -> Void
}
