import Synchronization

/// A clock the test sets by hand, injected as the store's journal clock.
final class TestClock: Sendable {
    private let milliseconds: Atomic<Int64>

    init(_ start: Int64 = 1_700_000_000_000) {
        milliseconds = Atomic(start)
    }

    /// The current time in milliseconds since 1970.
    var now: Int64 {
        get { milliseconds.load(ordering: .sequentiallyConsistent) }
        set { milliseconds.store(newValue, ordering: .sequentiallyConsistent) }
    }
}
