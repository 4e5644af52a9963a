/// The wait before a reconnection: exponential backoff with full jitter between ``minimum`` and ``maximum``.
///
/// After the `n`th consecutive failure the cap is `min(maximum, minimum × 2ⁿ⁻¹)` and the delay is uniform in
/// `[minimum, cap]`: 1 s after the first failure, up to 2 s after the second, 4 s, 8 s, 16 s, then 30 s.
package struct BirdReconnectBackoff: Sendable, Hashable {
    /// The shortest wait: 1 second.
    package var minimum: Duration
    /// The longest wait: 30 seconds.
    package var maximum: Duration

    /// A backoff, by default from 1 s to 30 s.
    ///
    /// - Parameters:
    ///   - minimum: the shortest wait.
    ///   - maximum: the longest wait.
    package init(minimum: Duration = .seconds(1), maximum: Duration = .seconds(30)) {
        precondition(minimum > .zero && maximum >= minimum, "backoff bounds must satisfy 0 < minimum <= maximum")
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The upper bound of the wait after `failures` consecutive failures.
    ///
    /// - Parameter failures: the number of failed attempts in a row, at least 1.
    /// - Returns: `min(maximum, minimum × 2^(failures-1))`.
    package func cap(afterFailures failures: Int) -> Duration {
        var cap = minimum
        var doublings = max(0, failures - 1)
        while doublings > 0 && cap < maximum {
            cap = cap * 2
            doublings -= 1
        }
        return min(cap, maximum)
    }

    /// The wait after `failures` consecutive failures.
    ///
    /// - Parameters:
    ///   - failures: the number of failed attempts in a row, at least 1.
    ///   - unit: a random number in `[0, 1]` (clamped).
    /// - Returns: `minimum + unit × (cap − minimum)`.
    package func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let span = cap(afterFailures: failures) - minimum
        let fraction = unit.isNaN ? 0 : Swift.min(1, Swift.max(0, unit))
        return minimum + span * fraction
    }
}
