/// At most ``count`` events per sliding window of ``windowMilliseconds``: the pure rule behind the SMS sending
/// limits (1 a minute, 5 an hour, 10 a day per number), mail limits, the per-client and per-app request limits
/// (``RequestQuota``) and wrong SMS codes without a number. Failed logins are slowed by ``Backoff`` instead.
///
/// It only judges event times it is given; where they are kept is the caller's business (the app's store,
/// see ``SmsCodes`` and ``RequestQuota``).
package struct RateLimit: Sendable, Equatable {
    /// Events allowed per window.
    package var count: Int
    /// The window's length.
    package var windowMilliseconds: Int64
    /// The window in words, for messages ("minute", "hour", "15 minutes").
    package var windowName: String

    /// A limit of `count` events per `windowMilliseconds`.
    package init(count: Int, windowMilliseconds: Int64, windowName: String) {
        precondition(count > 0 && windowMilliseconds > 0, "a rate limit needs a positive count and window")
        self.count = count
        self.windowMilliseconds = windowMilliseconds
        self.windowName = windowName
    }

    /// `count` events a minute.
    package static func perMinute(_ count: Int) -> RateLimit {
        RateLimit(count: count, windowMilliseconds: 60_000, windowName: "minute")
    }

    /// `count` events an hour.
    package static func perHour(_ count: Int) -> RateLimit {
        RateLimit(count: count, windowMilliseconds: 3_600_000, windowName: "hour")
    }

    /// `count` events a day (24 hours).
    package static func perDay(_ count: Int) -> RateLimit {
        RateLimit(count: count, windowMilliseconds: 86_400_000, windowName: "day")
    }

    /// How long until one more event is allowed, or `nil` when it is allowed now.
    ///
    /// - Parameters:
    ///   - events: when earlier events happened (any order; those outside the window are ignored).
    ///   - now: the time of the event being judged.
    /// - Returns: milliseconds to wait (at least 1), or `nil`.
    package func wait(events: [Int64], now: Int64) -> Int64? {
        let recent = events.filter { $0 > now - windowMilliseconds && $0 <= now }.sorted()
        guard recent.count >= count else { return nil }
        // The event that has to leave the window before another fits.
        let blocking = recent[recent.count - count]
        return max(1, blocking + windowMilliseconds - now)
    }

    /// Of `limits`, the one that refuses one more event for longest, with its wait; `nil` when all allow it.
    package static func refusal(_ limits: [RateLimit], events: [Int64], now: Int64) -> (RateLimit, Int64)? {
        var worst: (RateLimit, Int64)?
        for limit in limits {
            guard let wait = limit.wait(events: events, now: now) else { continue }
            if let current = worst, current.1 >= wait { continue }
            worst = (limit, wait)
        }
        return worst
    }

    /// A wait in words: "42 seconds", "3 minutes", "2 hours".
    package static func describe(milliseconds: Int64) -> String {
        let seconds = (milliseconds + 999) / 1000
        if seconds < 120 { return "\(seconds) second\(seconds == 1 ? "" : "s")" }
        let minutes = (seconds + 59) / 60
        if minutes < 120 { return "\(minutes) minutes" }
        return "\((minutes + 59) / 60) hours"
    }
}
