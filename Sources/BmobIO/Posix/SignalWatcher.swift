#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShims

/// Delivers process signals (SIGINT, SIGTERM, SIGHUP) to a callback on a thread of its own.
///
/// ``block(_:)`` must run first, in `main` before any other thread exists: threads inherit the signal mask,
/// so with the signals blocked everywhere the kernel keeps them pending until the watcher's `sigwait` takes
/// them — none is lost between start-up steps, and none lands on a thread that would die of it.
package enum SignalWatcher {
    /// What `bmob serve` watches: SIGINT and SIGTERM stop it, SIGHUP reloads its apps and settings.
    package static let serveSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks `signals` in the calling thread (and so in every thread it starts later).
    package static func block(_ signals: [Int32]) {
        var set = makeSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Calls `handler` with each of `signals` as it arrives, for the life of the process. The signals must
    /// have been blocked with ``block(_:)``.
    package static func start(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let watched = makeSet(signals)
        _ = Thread.spawn(name: "bmob-signals") {
            var set = watched
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                handler(received)
            }
        }
    }

    private static func makeSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
