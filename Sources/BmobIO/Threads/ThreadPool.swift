/// A fixed set of threads that run blocking work, so that nothing blocking ever runs on an event loop.
///
/// Work items are taken in submission order by whichever thread is free. Each thread has a stable index
/// (`0..<threadCount`) passed to the work, so a caller can keep per-thread state such as a database
/// connection (see `BmobStore`). A pool of one thread is a serial worker.
package final class ThreadPool: @unchecked Sendable {
    // Invariant: `queue`, `stopping`, `threads`, `idleThreads` and `counts` are only touched inside
    // `condition.withLock`.
    private let condition = ConditionLock()
    /// Threads waiting for work.
    private var idleThreads = 0
    private var counts = ThreadPoolStatistics()
    private var queue: [(Int) -> Void] = []
    private var queueHead = 0
    private var stopping = false
    private var threads: [Thread] = []
    /// Number of worker threads.
    package let threadCount: Int
    /// Name given to the threads (visible in debuggers and `top -H`).
    package let name: String

    /// Starts `threadCount` threads.
    package init(threadCount: Int, name: String) {
        precondition(threadCount > 0, "a thread pool needs at least one thread")
        self.threadCount = threadCount
        self.name = name
        for index in 0..<threadCount {
            let thread = Thread.spawn(name: "\(name)-\(index)") { [self] in
                self.workerLoop(index: index)
            }
            condition.withLock { threads.append(thread) }
        }
    }

    deinit {
        shutdown()
    }

    /// Queues `work`; it runs on one of the pool's threads with that thread's index.
    package func submit(_ work: @escaping @Sendable (Int) -> Void) {
        condition.withLock {
            precondition(!stopping, "work submitted to a thread pool that was shut down")
            counts.submitted += 1
            // Work already queued takes the idle threads first.
            if idleThreads <= queue.count - queueHead { counts.waited += 1 }
            queue.append(work)
            condition.signal()
        }
    }

    /// How much work was submitted, and how much found every thread busy.
    package var statistics: ThreadPoolStatistics {
        condition.withLock { counts }
    }

    /// Runs `body` on a pool thread and returns its result to the calling task.
    package func run<T: Sendable>(_ body: @escaping @Sendable (Int) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit { index in
                continuation.resume(with: Result { try body(index) })
            }
        }
    }

    /// Lets queued work finish, then stops and joins every thread. Safe to call more than once.
    package func shutdown() {
        let toJoin: [Thread] = condition.withLock {
            stopping = true
            condition.broadcast()
            let all = threads
            threads = []
            return all
        }
        for thread in toJoin {
            thread.join()
        }
    }

    private func workerLoop(index: Int) {
        while true {
            let work: ((Int) -> Void)? = condition.withLock {
                idleThreads += 1
                while queueHead == queue.count, !stopping {
                    condition.wait()
                }
                idleThreads -= 1
                guard queueHead < queue.count else { return nil }
                let item = queue[queueHead]
                queueHead += 1
                if queueHead == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueHead = 0
                }
                return item
            }
            guard let work else { return }
            work(index)
        }
    }
}
