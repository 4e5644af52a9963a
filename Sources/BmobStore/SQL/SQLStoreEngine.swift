import BmobIO
import BmobWire

/// What ``SQLiteStore`` and ``PostgresStore`` share: a writer (group commit) and a reader pool of one engine, and
/// the gate that stops new work once closing starts. Each store forwards its ``Store`` requirements here.
final class SQLStoreEngine<Readers: SQLReaderPool>: Sendable {
    typealias Connection = Readers.Connection

    // Invariant: `closing` is only touched inside `gate.withLock`; reads and writes are handed to their
    // threads under the same lock, so nothing reaches a pool after ``close()`` started shutting it down.
    private let gate = Lock()
    private nonisolated(unsafe) var closing = false
    let writer: SQLWriter<Connection>
    let readers: Readers

    init(writer: SQLWriter<Connection>, readers: Readers) {
        self.writer = writer
        self.readers = readers
    }

    /// Queues `body` on the writer and returns what it returned once its group committed.
    ///
    /// Not generic, and the stores cast the result back: callers reach them through `any Store`, so nothing here
    /// is specialized, and typed as `T` the continuation made Swift look up `CheckedContinuation<T, any Error>`'s
    /// metadata at run time eight times per write. A generic form here (a generic method of this generic class
    /// called from the stores' generic requirement) also crashed at run time in Swift 6.3.1.
    func write(
        caller: JournalAuthor?,
        rerunnable: Bool,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> any Sendable
    ) async throws -> any Sendable {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            let job = StoreWriteJob(caller: caller, rerunnable: rerunnable, body: body, continuation: continuation)
            let accepted = gate.withLock {
                guard !closing else { return false }
                writer.enqueue(job)
                return true
            }
            if !accepted { continuation.resume(throwing: StoreError.closed()) }
        }
    }

    /// Runs `body` on a pooled reader; cancelling the task interrupts it. Erased for the reason given in
    /// ``write(caller:rerunnable:_:)``.
    func withReader(_ body: @escaping @Sendable (SQLReadTransaction<Connection>) throws -> any Sendable)
        async throws -> any Sendable
    {
        let ticket = StoreReadTicket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let accepted = gate.withLock {
                    guard !closing else { return false }
                    readers.submit(ticket: ticket, body) { continuation.resume(with: $0) }
                    return true
                }
                if !accepted { continuation.resume(throwing: StoreError.closed()) }
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Stops new work, finishes queued writes and in-flight reads, then, on the writer thread, runs `finally`,
    /// closes the readers and the writer. Calling it again just waits for the first call to finish.
    func close(finally: @escaping @Sendable () -> Void = {}) async {
        gate.withLock { closing = true }
        await writer.close { [readers] in
            finally()
            readers.shutdown()
        }
    }
}
