/// One queued write: the caller's body, with its result type erased so that jobs of any type share the
/// writer's queue, and the continuation the result goes back through.
///
/// A class rather than a struct of closures: queuing a write costs one allocation instead of one per closure.
final class StoreWriteJob: @unchecked Sendable {
    // Invariant: `caller`, `rerunnable`, `body` and `continuation` are constants; `result` is written by
    // `perform` and read by `resume`, both on the writer thread and in that order.
    /// Who makes the change, for the journal.
    let caller: JournalAuthor?
    /// The body may be rolled back and run again (``Store/write(caller:rerunnable:_:)``).
    let rerunnable: Bool
    private let body: @Sendable (any StoreWriteTransaction) throws -> any Sendable
    private let continuation: CheckedContinuation<any Sendable, any Error>
    private var result: any Sendable = ()

    init(
        caller: JournalAuthor?,
        rerunnable: Bool,
        body: @escaping @Sendable (any StoreWriteTransaction) throws -> any Sendable,
        continuation: CheckedContinuation<any Sendable, any Error>
    ) {
        self.caller = caller
        self.rerunnable = rerunnable
        self.body = body
        self.continuation = continuation
    }

    /// Runs the caller's body in `transaction`; the result waits for the group's COMMIT. A rerunnable body
    /// may run again in a later transaction; its last result is the one returned.
    func perform(_ transaction: any StoreWriteTransaction) throws {
        result = try body(transaction)
    }

    /// Hands the result to the caller once the group's COMMIT succeeded.
    func resume() {
        continuation.resume(returning: result)
    }

    /// Resumes the caller with an error: its own, or the group's failed COMMIT.
    func fail(_ error: any Error) {
        continuation.resume(throwing: error)
    }
}
