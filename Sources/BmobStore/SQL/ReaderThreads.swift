import BmobIO

/// The threads of a reader pool, each with a slot of its own (its connection, opened lazily): what
/// ``SQLiteReaderPool`` and ``PostgresReaderPool`` share. Work runs on whichever thread is free, with that
/// thread's slot; ``runOnCaller(_:)`` runs it on the calling thread instead, with a slot no one is using.
final class ReaderThreads<Slot: AnyObject>: @unchecked Sendable {
    // Invariant: a guard's slot and `closed` flag are only touched while holding its lock: by the pool thread
    // with the guard's index, by a caller that took the lock with `tryLock` (``runOnCaller(_:)``), and by
    // ``shutdown(_:)``, which marks every slot closed under its lock after the pool threads were joined. The
    // array never changes after `init`, so threads never write to shared storage (one box per slot).
    private let guards: [Guard]
    private let pool: ThreadPool

    /// `count` threads (at least one) named `name`, each with a slot from `makeSlot`.
    init(count: Int, name: String, makeSlot: () -> Slot) {
        let count = max(1, count)
        guards = (0..<count).map { _ in Guard(slot: makeSlot()) }
        pool = ThreadPool(threadCount: count, name: name)
    }

    /// Runs `work` on a free thread with its slot; `completion` receives the result on that thread.
    func submit<T>(
        _ work: @escaping @Sendable (Slot) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        pool.submit { index in
            // A caller may hold the slot for a moment (runOnCaller): the thread waits for it.
            let slot = self.guards[index]
            let result = slot.lock.withLock { Result { try work(slot.slot) } }
            completion(result)
        }
    }

    /// Runs `work` on the calling thread with a slot that no thread or caller is using, sparing the read two
    /// thread switches; `nil` when every slot is busy (or the pool is shut down), and the work did not run.
    func runOnCaller<T>(_ work: (Slot) throws -> T) -> Result<T, any Error>? {
        for slot in guards where slot.lock.tryLock() {
            defer { slot.lock.unlock() }
            if slot.closed { return nil }
            return Result { try work(slot.slot) }
        }
        return nil
    }

    /// Waits for queued work, stops the threads, then hands each slot to `close`. Blocks.
    func shutdown(_ close: (Slot) -> Void) {
        pool.shutdown()
        for slot in guards {
            slot.lock.withLock {
                guard !slot.closed else { return }
                slot.closed = true
                close(slot.slot)
            }
        }
    }

    /// A slot with the lock that confines it.
    private final class Guard {
        let lock = Lock()
        let slot: Slot
        var closed = false

        init(slot: Slot) {
            self.slot = slot
        }
    }
}
