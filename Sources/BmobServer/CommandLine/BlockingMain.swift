import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command's `main` that stays synchronous: an async `main` hands the main thread to the dispatch main queue,
/// whose signal thread would receive SIGINT and SIGTERM with their default action, so the command runs in a
/// detached task while the main thread waits for its exit status.
package enum BlockingMain {
    /// Runs `command` and exits the process with the status it returns.
    package static func run(_ command: @escaping @Sendable () async -> Int32) -> Never {
        let outcome = Outcome()
        // Detached: top-level code is main-actor code, and the main thread blocks below, so a task inheriting
        // the main actor would never run.
        Task.detached {
            let status = await command()
            outcome.done.withLock {
                outcome.status = status
                outcome.done.broadcast()
            }
        }
        let status = outcome.done.withLock { () -> Int32 in
            while outcome.status == nil { outcome.done.wait() }
            return outcome.status!
        }
        exit(status)
    }

    /// Writes `text` and a newline to standard error, after whatever standard output holds.
    package static func printError(_ text: String) {
        fflush(nil)
        _ = (text + "\n").utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// The exit status, handed from the command's task to the waiting thread.
    private final class Outcome: @unchecked Sendable {
        // Invariant: `status` is written once inside `done.withLock` and read under the same lock.
        let done = ConditionLock()
        var status: Int32?
    }
}
