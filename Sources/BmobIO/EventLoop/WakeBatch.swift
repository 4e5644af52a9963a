#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wake-ups of event loops held back on one thread while it hands them a burst of work.
///
/// The SQLite writer finishes a group of writes by resuming every caller's task, each an ``EventLoop/enqueue(_:)``
/// onto the loop that runs it. On a busy core, waking the loop for the first of them lets it preempt the writer,
/// answer one request, find nothing else queued and sleep again, once per write. Inside
/// ``EventLoop/batchingWakeups(_:)`` the work is queued at once and each loop is woken once, at the end.
///
/// Rules:
/// 1. A batch belongs to the thread that opened it (thread-specific storage); other threads wake loops as usual.
/// 2. A loop marked as waking (`wakePending`) by a held-back submission is woken when the batch ends, so no
///    submission is ever left without a wake-up.
final class WakeBatch {
    private(set) var loops: [EventLoop] = []

    func hold(_ loop: EventLoop) {
        loops.append(loop)
    }

    /// The batch open on the calling thread, if any.
    static var current: WakeBatch? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<WakeBatch>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Opens a batch on the calling thread for the duration of `body`, then wakes the loops it held back.
    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if current != nil { return try body() }  // nested: the outer batch wakes them
        let batch = WakeBatch()
        let pointer = Unmanaged.passRetained(batch).toOpaque()
        pthread_setspecific(key, pointer)
        defer {
            pthread_setspecific(key, nil)
            Unmanaged<WakeBatch>.fromOpaque(pointer).release()
            for loop in batch.loops { loop.wakeHeldBack() }
        }
        return try body()
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "pthread_key_create failed: \(result)")
        return key
    }()
}
