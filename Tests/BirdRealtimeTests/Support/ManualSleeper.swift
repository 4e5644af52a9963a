@testable import BirdRealtime
import BmobRealtime
import Foundation

/// A manual clock for a client's timers: every sleep is recorded and suspends until the test fires it (or the
/// client cancels it), so backoff is tested without waiting.
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held; each
/// continuation is resumed exactly once, after being removed under the lock.
final class ManualSleeper: @unchecked Sendable {
    typealias Timer = BirdConnectionStateMachine.Timer

    private struct Pending {
        var duration: RealtimeDuration
        var timer: Timer
        var continuation: CheckedContinuation<Void, any Error>?
        var cancelled = false
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]
    private var nextId = 0
    private var log: [(RealtimeDuration, Timer)] = []

    /// Every sleep requested, in order.
    var requested: [(duration: RealtimeDuration, timer: Timer)] { lock.withLock { log.map { ($0.0, $0.1) } } }

    /// The requested durations of `timer`.
    func durations(_ timer: Timer) -> [RealtimeDuration] { requested.filter { $0.timer == timer }.map(\.duration) }

    func sleep(_ duration: RealtimeDuration, _ timer: Timer) async throws {
        let id = lock.withLock { () -> Int in
            nextId += 1
            pending[nextId] = Pending(duration: duration, timer: timer)
            log.append((duration, timer))
            return nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = lock.withLock { () -> Bool in
                    if pending[id]?.cancelled == true {
                        pending[id] = nil
                        return true
                    }
                    pending[id]?.continuation = continuation
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let entry = pending[id] else { return nil }
                guard let continuation = entry.continuation else {
                    pending[id]?.cancelled = true
                    return nil
                }
                pending[id] = nil
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Fires the oldest waiting sleep of `timer`; `false` when none waits.
    @discardableResult
    func fire(_ timer: Timer) -> Bool {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            guard
                let (id, entry) = pending.filter({ $0.value.timer == timer && $0.value.continuation != nil }).min(by: {
                    $0.key < $1.key
                })
            else { return nil }
            pending[id] = nil
            return entry.continuation
        }
        continuation?.resume()
        return continuation != nil
    }

    /// Whether a sleep of `timer` is waiting.
    func isWaiting(_ timer: Timer) -> Bool {
        lock.withLock { pending.values.contains { $0.timer == timer && $0.continuation != nil } }
    }
}
