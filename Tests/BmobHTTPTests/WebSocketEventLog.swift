import BmobWire
import Synchronization

/// What the echo handlers saw, readable from tests.
final class WebSocketEventLog: Sendable {
    enum Event: Equatable, Sendable {
        case opened
        case closed(WebSocketCloseCode?)
        case flooded(sent: Int, queued: Int)
    }

    private let events = Mutex<[Event]>([])

    func record(_ event: Event) {
        events.withLock { $0.append(event) }
    }

    var all: [Event] {
        events.withLock { $0 }
    }

    /// Waits up to `seconds` for an event matching `predicate`.
    func waitFor(seconds: Double = 60, _ predicate: (Event) -> Bool) async -> Event? {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            if let event = all.first(where: predicate) { return event }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
