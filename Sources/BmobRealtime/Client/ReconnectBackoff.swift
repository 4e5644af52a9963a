/// The wait before a realtime client reconnects: a cap that doubles from ``first`` with each failed attempt in a row,
/// up to ``maximum``, and a wait drawn below the cap by the client's ``Jitter``.
///
/// `BirdRealtime` (`BirdReconnectBackoff`) draws in `[first, cap]`; `OnebaseClient` (`OnebaseReconnectBackoff`,
/// `sync.md` §1.7) in `[cap / 2, cap]`. Each client names its defaults in an initializer of its own.
package struct ReconnectBackoff: Sendable, Hashable {
    /// Where in `[0, cap]` the wait is drawn.
    package enum Jitter: Sendable, Hashable {
        /// Uniform in `[first, cap]`: `first + unit × (cap − first)`.
        case fromFirst
        /// Uniform in `[cap / 2, cap]`: `cap × (1 + unit) / 2`.
        case upperHalf
    }

    /// The cap after the first failure, and with ``Jitter/fromFirst`` the shortest wait.
    package var first: RealtimeDuration
    /// The largest cap.
    package var maximum: RealtimeDuration
    /// Where the wait is drawn below the cap.
    package var jitter: Jitter

    /// A backoff.
    ///
    /// - Parameters:
    ///   - first: the cap after the first failure; more than zero.
    ///   - maximum: the largest cap; at least `first`.
    ///   - jitter: where the wait is drawn below the cap.
    package init(first: RealtimeDuration, maximum: RealtimeDuration, jitter: Jitter) {
        precondition(first > .zero && maximum >= first, "backoff bounds must satisfy 0 < first <= maximum")
        self.first = first
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The cap after `failures` failed attempts in a row.
    ///
    /// - Parameter failures: failed attempts in a row, at least 1.
    /// - Returns: `min(maximum, first × 2^(failures−1))`.
    package func cap(afterFailures failures: Int) -> RealtimeDuration {
        var cap = first
        var doublings = Swift.max(0, failures - 1)
        while doublings > 0 && cap < maximum {
            cap = cap * 2
            doublings -= 1
        }
        return Swift.min(cap, maximum)
    }

    /// The wait after `failures` failed attempts in a row.
    ///
    /// - Parameters:
    ///   - failures: failed attempts in a row, at least 1.
    ///   - unit: a random number in `[0, 1]` (clamped; NaN counts as 0).
    /// - Returns: the wait, as ``jitter`` draws it.
    package func delay(afterFailures failures: Int, unit: Double) -> RealtimeDuration {
        let fraction = unit.isNaN ? 0 : Swift.min(1, Swift.max(0, unit))
        let cap = cap(afterFailures: failures)
        switch jitter {
        case .fromFirst:
            return first + (cap - first) * fraction
        case .upperHalf:
            return cap * ((1 + fraction) / 2)
        }
    }
}
