package import BmobServer
import Synchronization

/// A clock tests move by hand, for expiry and rate limits.
package final class TestClock: Sendable {
    private let now: Mutex<Int64>

    /// A clock at `start` milliseconds since 1970.
    package init(start: Int64) {
        now = Mutex(start)
    }

    /// Moves the clock forward.
    package func advance(milliseconds: Int64) {
        now.withLock { $0 += milliseconds }
    }

    /// The clock as the server takes it.
    package var serverClock: ServerClock {
        ServerClock { [self] in self.now.withLock { $0 } }
    }
}
