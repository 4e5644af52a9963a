import BmobHTTP
import Synchronization

/// What the streaming handlers saw, readable from tests.
final class StreamEventLog: Sendable {
    enum Event: Equatable, Sendable {
        /// An upload's stream ended with this error.
        case uploadFailed(HTTPStreamError.Code)
        /// A download's producer was stopped by this error after writing this many bytes.
        case downloadFailed(HTTPStreamError.Code, written: Int)
        /// A download's producer wrote everything.
        case downloadFinished(Int)
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
