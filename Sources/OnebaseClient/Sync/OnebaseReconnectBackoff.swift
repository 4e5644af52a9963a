/// The wait before reconnecting (`sync.md` §1.7): the cap doubles from ``initial`` with each failed attempt in a row,
/// up to ``maximum`` (1 s, 2 s, 4 s, 8 s, 16 s, 16 s…), and the wait is drawn between half the cap and the cap, so
/// that clients dropped together do not come back together.
package struct OnebaseReconnectBackoff: Sendable, Hashable {
    /// The first cap: 1 second.
    package var initial: Duration
    /// The largest cap: 16 seconds.
    package var maximum: Duration

    /// A backoff, by default from 1 s to 16 s.
    ///
    /// - Parameters:
    ///   - initial: the cap after the first failure.
    ///   - maximum: the largest cap.
    package init(initial: Duration = .seconds(1), maximum: Duration = .seconds(16)) {
        precondition(initial > .zero && maximum >= initial, "backoff bounds must satisfy 0 < initial <= maximum")
        self.initial = initial
        self.maximum = maximum
    }

    /// The cap after `failures` failed attempts in a row: `min(maximum, initial × 2^(failures−1))`.
    ///
    /// - Parameter failures: failed attempts in a row, at least 1.
    /// - Returns: the cap.
    package func cap(afterFailures failures: Int) -> Duration {
        var cap = initial
        for _ in 1..<max(1, failures) where cap < maximum { cap = cap * 2 }
        return min(cap, maximum)
    }

    /// The wait after `failures` failed attempts in a row.
    ///
    /// - Parameters:
    ///   - failures: failed attempts in a row, at least 1.
    ///   - unit: a random number in `[0, 1]` (clamped; NaN counts as 0).
    /// - Returns: `cap × (1 + unit) / 2`.
    package func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let fraction = unit.isNaN ? 0 : min(1, max(0, unit))
        return cap(afterFailures: failures) * ((1 + fraction) / 2)
    }
}
