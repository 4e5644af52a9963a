/// Exponential backoff after a free allowance: the pure rule behind slowed logins (see
/// ``UserService/checkLoginLimits(account:userIds:client:now:transaction:)``).
///
/// Fewer than ``freeFailures`` failures cost nothing. From then on, the next attempt has to wait
/// ``baseMilliseconds`` after the latest failure, and each further failure doubles that wait, up to
/// ``maximumMilliseconds``: with 5 free failures and a 1 s base, the 6th attempt waits 1 s, the 7th 2 s, the 8th
/// 4 s, … An attacker is slowed to one guess per maximum wait; nobody is ever locked out for longer than that.
///
/// Like ``RateLimit`` it only judges the failure times it is given; where they are kept is the caller's business.
package struct Backoff: Sendable, Equatable {
    /// Failures that cost no wait.
    package var freeFailures: Int
    /// The first wait, once the free failures are used up.
    package var baseMilliseconds: Int64
    /// The longest wait.
    package var maximumMilliseconds: Int64

    /// A backoff allowing `freeFailures`, then waiting `baseMilliseconds`, doubled per further failure up to
    /// `maximumMilliseconds`.
    package init(freeFailures: Int, baseMilliseconds: Int64, maximumMilliseconds: Int64) {
        precondition(freeFailures >= 0 && baseMilliseconds > 0, "a backoff needs a positive base wait")
        self.freeFailures = freeFailures
        self.baseMilliseconds = baseMilliseconds
        self.maximumMilliseconds = max(baseMilliseconds, maximumMilliseconds)
    }

    /// The wait owed after `failures` failures, counted from the latest one (0 within the free allowance).
    package func delay(failures: Int) -> Int64 {
        guard failures >= freeFailures else { return 0 }
        var wait = baseMilliseconds
        var doublings = failures - freeFailures
        // Doubling stops at the cap, so a long run of failures can neither overflow nor loop for long.
        while doublings > 0, wait < maximumMilliseconds {
            wait = wait > maximumMilliseconds / 2 ? maximumMilliseconds : wait * 2
            doublings -= 1
        }
        return min(wait, maximumMilliseconds)
    }

    /// How long until one more attempt is allowed, or `nil` when it is allowed now.
    ///
    /// - Parameters:
    ///   - failures: when the counted failures happened (any order; the caller picks the window).
    ///   - now: the time of the attempt being judged.
    /// - Returns: milliseconds to wait (at least 1), or `nil`.
    package func wait(failures: [Int64], now: Int64) -> Int64? {
        guard let latest = failures.max() else { return nil }
        let delay = delay(failures: failures.count)
        guard delay > 0, latest + delay > now else { return nil }
        // Never more than one full delay, even for failures "in the future" of a clock that was set back.
        return min(latest + delay - now, delay)
    }
}
