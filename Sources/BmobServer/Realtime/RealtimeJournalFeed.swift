import BmobIO
import BmobStore
import Synchronization

/// One app's journal as realtime changes: after each commit it reads the new journal entries and yields them,
/// as neutral ``RealtimeChange``s, to the consumers (doors) that have interest in the app.
///
/// Rules:
/// 1. The journal is the source. Changes are read back from committed journal rows by `seq`, never taken
///    from the request that wrote them, so writes from every front door (and, on PostgreSQL, from other nodes)
///    produce the same changes, and a rolled-back write produces none.
/// 2. A consumer gets what commits after its interest began: when its interest goes from none to some, its
///    floor is the journal's current head, and nothing at or below it is yielded to it.
/// 3. While no consumer has interest the feed reads nothing; commit notices are ignored.
/// 4. Changes are yielded in journal order, one batch at a time: the next batch is read once every consumer
///    has taken the last one, so a consumer's own publishes keep journal order.
/// 5. The feed reads in ``run()``, a child task of ``RealtimeFeeds/run()``; cancelling that task or
///    ``stop()`` ends it.
/// 6. A read that fails is retried after a pause (50 ms, doubling up to 5 s), without waiting for a commit.
package final class RealtimeJournalFeed: Sendable {
    private struct Interest {
        let consumer: any RealtimeChangeConsumer
        /// Registrations the consumer holds (a socket.io door: one per subscription).
        var count: Int
        /// Entries at or below this `seq` are not yielded to the consumer (rule 2).
        var floor: Int64
    }

    private struct State {
        var interests: [ObjectIdentifier: Interest] = [:]
        var wakePending = false
        var waiter: CheckedContinuation<Bool, Never>?
        var stopped = false
    }

    /// The app whose journal the feed reads.
    package let runtime: AppRuntime
    private let logger: Logger
    private let state = LockedValue(State())
    /// Journal entries read per query.
    private static let batchSize = 256
    /// The `seq` through which the journal has been read and handed on, for the lag in `/metrics`.
    private let readThrough = Atomic<Int64>(0)

    /// Committed journal entries this feed has not yet read and handed to its consumers; `nil` when no door has
    /// interest in the app (the feed then reads nothing).
    package var lag: Int64? {
        guard state.withLock({ !$0.interests.isEmpty }) else { return nil }
        return max(0, runtime.store.committedJournalSeq - readThrough.load(ordering: .relaxed))
    }

    /// A feed of `runtime`'s journal; it reads once ``run()`` runs.
    init(runtime: AppRuntime, logger: Logger) {
        self.runtime = runtime
        self.logger = logger
        runtime.store.observeCommits { [weak self] _ in self?.commitObserved() }
    }

    /// One registration more of `consumer`'s interest; the first starts its changes at the journal's head.
    package func addInterest(of consumer: any RealtimeChangeConsumer) {
        let head = runtime.store.committedJournalSeq
        state.withLock { state in
            let id = ObjectIdentifier(consumer)
            if state.interests[id] == nil {
                state.interests[id] = Interest(consumer: consumer, count: 0, floor: head)
            }
            state.interests[id]?.count += 1
        }
    }

    /// One registration less of `consumer`'s interest; with the last, it gets nothing more.
    package func removeInterest(of consumer: any RealtimeChangeConsumer) {
        state.withLock { state in
            let id = ObjectIdentifier(consumer)
            guard let interest = state.interests[id] else { return }
            if interest.count > 1 {
                state.interests[id]?.count -= 1
            } else {
                state.interests[id] = nil
            }
        }
    }

    /// Ends ``run()``; nothing is yielded afterwards.
    func stop() {
        let waiter = state.withLock { state in
            state.stopped = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }

    // MARK: - Reading

    /// Runs on the store's writer thread after a commit: wakes the reader, if anyone listens.
    private func commitObserved() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.interests.isEmpty, !state.stopped else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.wakePending = true
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Waits for a commit notice; `false` once stopped or cancelled.
    private func nextWake() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.stopped { return false }
                    if state.wakePending {
                        state.wakePending = false
                        return true
                    }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            stop()
        }
    }

    /// Reads and yields until stopped or cancelled. A failed read (the database away for a moment) is retried
    /// after a growing pause rather than at the next commit, which might never come: entries already committed
    /// are not held back.
    func run() async {
        var cursor: Int64 = 0
        var retryPause: Duration?
        while true {
            if let pause = retryPause {
                do { try await Task.sleep(for: pause) } catch { return }
                if state.withLock({ $0.stopped }) { return }
            } else if await !nextWake() {
                return
            }
            // Entries below every consumer's floor are skipped without reading them.
            let lowest = state.withLock { $0.interests.values.lazy.map(\.floor).min() }
            guard let lowest else {
                retryPause = nil
                continue
            }
            cursor = max(cursor, lowest)
            readThrough.store(cursor, ordering: .relaxed)
            do {
                while true {
                    let entries = try await runtime.store.journal(after: cursor, limit: Self.batchSize)
                    guard let last = entries.last else { break }
                    cursor = last.seq
                    await yield(entries)
                    readThrough.store(cursor, ordering: .relaxed)
                    if entries.count < Self.batchSize || state.withLock({ $0.stopped }) { break }
                }
                retryPause = nil
            } catch {
                if state.withLock({ $0.stopped }) { return }
                logger.error("realtime: reading the journal of app \(runtime.app.applicationId) failed: \(error)")
                retryPause = min((retryPause ?? .milliseconds(50)) * 2, .seconds(5))
            }
        }
    }

    /// Hands `entries` to each consumer with interest, from its floor on.
    private func yield(_ entries: [JournalEntry]) async {
        let interests = state.withLock { Array($0.interests.values) }
        guard !interests.isEmpty else { return }
        let changes = entries.map(RealtimeChange.init)
        for interest in interests {
            // Changes are in `seq` order, so the consumer's are a suffix.
            let start = changes.firstIndex { $0.seq > interest.floor } ?? changes.endIndex
            guard start < changes.endIndex else { continue }
            await interest.consumer.consume(start == 0 ? changes : Array(changes[start...]), of: runtime)
        }
    }
}
