import Synchronization

/// A number that goes up and down (Prometheus `gauge`): open connections, queue depths.
package final class MetricGauge: Sendable {
    private let current = Atomic<Int>(0)

    package init() {}

    /// Adds `amount` (negative to subtract).
    package func add(_ amount: Int) {
        current.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The current value.
    package var value: Int { current.load(ordering: .relaxed) }
}
