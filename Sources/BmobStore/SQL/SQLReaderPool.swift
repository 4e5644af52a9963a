/// A pool of reader threads of one engine, each with its own connection: where ``SQLStoreEngine`` sends reads.
protocol SQLReaderPool: Sendable {
    associatedtype Connection: SQLStoreConnection

    /// Queues a read; `completion` receives its result on the reader thread.
    func submit<T>(
        ticket: StoreReadTicket,
        _ body: @escaping @Sendable (SQLReadTransaction<Connection>) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    )

    /// Waits for queued reads, stops the threads and closes the connections. Blocks: call it on the writer
    /// thread (``SQLStoreEngine/close()`` does).
    func shutdown()
}
