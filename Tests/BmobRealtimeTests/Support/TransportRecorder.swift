import BmobRealtime
import BmobWire
import Foundation

/// Collects a transport's events so a test can wait for them.
///
/// Invariant for `@unchecked Sendable`: `events` is only touched while `lock` is held.
final class TransportRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [WebSocketTransportEvent] = []

    /// The callback to pass to `connect`.
    var handler: @Sendable (WebSocketTransportEvent) -> Void {
        { [self] event in lock.withLock { events.append(event) } }
    }

    /// The messages received so far.
    var messages: [WebSocketMessage] {
        lock.withLock {
            events.compactMap {
                if case .message(let message) = $0 { return message }
                return nil
            }
        }
    }

    /// The closure, once reported.
    var closure: WebSocketTransportClosure? {
        lock.withLock {
            for case .closed(let closure) in events { return closure }
            return nil
        }
    }

    /// Waits until `count` messages have arrived and returns them.
    func waitForMessages(_ count: Int, timeout: Double = 10) async throws -> [WebSocketMessage] {
        try await waitUntil(timeout: timeout, "\(count) messages") {
            let messages = self.messages
            return messages.count >= count ? messages : nil
        }
    }

    /// Waits for the closure.
    func waitForClosure(timeout: Double = 10) async throws -> WebSocketTransportClosure {
        try await waitUntil(timeout: timeout, "the closure") { self.closure }
    }

    /// How many closures were reported (exactly one is expected).
    var closureCount: Int {
        lock.withLock {
            events.count { if case .closed = $0 { return true } else { return false } }
        }
    }
}
