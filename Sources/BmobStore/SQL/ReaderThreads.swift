import BmobIO

/// The threads of a reader pool, each with a slot of its own (its connection, opened lazily on that thread):
/// what ``SQLiteReaderPool`` and ``PostgresReaderPool`` share. Work runs on whichever thread is free, with that
/// thread's slot.
final class ReaderThreads<Slot: AnyObject>: @unchecked Sendable {
    // Invariant: `slots[i]` is only touched by the pool thread with index `i`, and by ``shutdown(_:)`` after every
    // pool thread was joined. The array itself never changes after `init`, so threads never write to shared
    // storage (one box per slot, not one array of connections).
    private let slots: [Slot]
    private let pool: ThreadPool

    /// `count` threads (at least one) named `name`, each with a slot from `makeSlot`.
    init(count: Int, name: String, makeSlot: () -> Slot) {
        let count = max(1, count)
        slots = (0..<count).map { _ in makeSlot() }
        pool = ThreadPool(threadCount: count, name: name)
    }

    /// Runs `work` on a free thread with its slot; `completion` receives the result on that thread.
    func submit<T>(
        _ work: @escaping @Sendable (Slot) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        pool.submit { index in
            completion(Result { try work(self.slots[index]) })
        }
    }

    /// Waits for queued work, stops the threads, then hands each slot to `close`. Blocks.
    func shutdown(_ close: (Slot) -> Void) {
        pool.shutdown()
        slots.forEach(close)
    }
}
