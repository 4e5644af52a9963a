/// A pool of reader threads of one engine, each with its own connection: where ``SQLStoreEngine`` sends reads.
protocol SQLReaderPool: Sendable {
    associatedtype Connection: SQLStoreConnection

    /// Queues a read; `completion` receives its result on the reader thread.
    func submit<T>(
        ticket: StoreReadTicket,
        _ body: @escaping @Sendable (SQLReadTransaction<Connection>) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    )

    /// Runs a read on the calling thread when the pool has a connection free and the read is short: `nil`
    /// when it has none, or when the read turned out longer than a caller should wait for (it then stopped
    /// early and left nothing behind), and the read must be submitted.
    func runOnCaller<T>(
        ticket: StoreReadTicket, _ body: (SQLReadTransaction<Connection>) throws -> T
    ) -> Result<T, any Error>?

    /// Waits for queued reads, stops the threads and closes the connections. Blocks: call it on the writer
    /// thread (``SQLStoreEngine/close()`` does).
    func shutdown()
}
