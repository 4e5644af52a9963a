import Synchronization

/// Observations counted into fixed buckets (Prometheus `histogram`), lock-free: one atomic add for the bucket, one
/// for the sum. Buckets are kept non-cumulative and summed when exposed, so an observation touches one bucket.
package final class MetricHistogram: Sendable {
    /// Upper bounds of the buckets, ascending, in the histogram's unit (the last, implicit bucket is `+Inf`).
    package let bounds: [Double]
    /// The same bounds in the integer unit observations arrive in (for durations, nanoseconds).
    private let integerBounds: [UInt64]
    /// How many integer units make one exposed unit (1e9 for nanoseconds shown as seconds).
    private let scale: Double
    private let buckets: [MetricCounter]
    private let sum = Atomic<UInt64>(0)

    /// A histogram whose observations are integers, exposed divided by `scale`.
    package init(bounds: [Double], scale: Double = 1) {
        self.bounds = bounds
        self.scale = scale
        self.integerBounds = bounds.map { UInt64(($0 * scale).rounded()) }
        self.buckets = (0...bounds.count).map { _ in MetricCounter() }
    }

    /// Durations in seconds, observed in nanoseconds: half a millisecond to ten seconds.
    package static func durations() -> MetricHistogram {
        MetricHistogram(
            bounds: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], scale: 1e9)
    }

    /// Records one observation of `amount` integer units.
    package func observe(_ amount: UInt64) {
        var index = 0
        while index < integerBounds.count, amount > integerBounds[index] { index += 1 }
        buckets[index].add()
        sum.wrappingAdd(amount, ordering: .relaxed)
    }

    /// What is exposed: cumulative counts per bound (then `+Inf`), the total count and the sum in exposed units.
    package var snapshot: (cumulative: [Int], count: Int, sum: Double) {
        var running = 0
        var cumulative: [Int] = []
        cumulative.reserveCapacity(buckets.count)
        for bucket in buckets {
            running += bucket.value
            cumulative.append(running)
        }
        return (cumulative, running, Double(sum.load(ordering: .relaxed)) / scale)
    }
}
