import Foundation

/// The timers a realtime client's driver runs for its state machine (`BirdRealtime`, `OnebaseClient`): one task per
/// kind of timer, which sleeps, then fires unless it was cancelled; starting a kind again replaces the one running.
///
/// Fired timers carry nothing but their kind: the machine tells a stale firing by the attempt the driver passes back.
///
/// Invariant for `@unchecked Sendable`: `tasks` is read and written only while `lock` is held; no code runs with the
/// lock held but the dictionary's own.
package final class DriverTimers<Timer: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Timer: Task<Void, Never>] = [:]

    /// No timers.
    package init() {}

    deinit {
        for task in tasks.values { task.cancel() }
    }

    /// Starts `timer`, cancelling the one of the same kind that runs.
    ///
    /// - Parameters:
    ///   - timer: the kind.
    ///   - delay: how long to wait.
    ///   - sleep: the wait (the environment's; a test's manual clock); throws when cancelled.
    ///   - fire: runs once the wait is over, unless the timer was cancelled or replaced.
    package func start(
        _ timer: Timer, after delay: RealtimeDuration, sleep: @escaping @Sendable (RealtimeDuration, Timer) async throws -> Void,
        fire: @escaping @Sendable () -> Void
    ) {
        let task = Task {
            do { try await sleep(delay, timer) } catch { return }
            guard !Task.isCancelled else { return }
            fire()
        }
        let previous = lock.withLock { () -> Task<Void, Never>? in
            defer { tasks[timer] = task }
            return tasks[timer]
        }
        previous?.cancel()
    }

    /// Cancels every timer.
    package func cancelAll() {
        let running = lock.withLock { () -> [Task<Void, Never>] in
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        for task in running { task.cancel() }
    }
}
