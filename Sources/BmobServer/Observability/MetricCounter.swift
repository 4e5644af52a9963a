import Synchronization

/// A number that only grows (Prometheus `counter`), safe to add to from any thread without a lock.
package final class MetricCounter: Sendable {
    private let count = Atomic<Int>(0)

    package init() {}

    /// Adds `amount` (one by default).
    package func add(_ amount: Int = 1) {
        count.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The count so far.
    package var value: Int { count.load(ordering: .relaxed) }
}
