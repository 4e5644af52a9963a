import Foundation

/// Runs blocking work (a script, a libpq call) on a thread of its own and waits for it without holding a thread of
/// Swift's cooperative pool: with two cores that pool has two threads, and tests that blocked them while creating
/// databases stalled every other test's server (handshakes expired before their WebSockets were served).
package func withoutBlockingThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}
