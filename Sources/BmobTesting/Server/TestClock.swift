import BmobIO
package import BmobServer

/// A clock tests move by hand, for expiry and rate limits.
package final class TestClock: Sendable {
    private let now: LockedValue<Int64>

    /// A clock at `start` milliseconds since 1970.
    package init(start: Int64) {
        now = LockedValue(start)
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
