import BmobServer
import Testing

@Suite("RateLimit: sliding windows")
struct RateLimitTests {
    @Test("allowed below the count; the wait is until the blocking event leaves the window")
    func waits() {
        let limit = RateLimit.perMinute(2)
        #expect(limit.wait(events: [], now: 1000) == nil)
        #expect(limit.wait(events: [1000], now: 1000) == nil)
        #expect(limit.wait(events: [1000, 31_000], now: 40_000) == 21_000)
        // Events that left the window do not count; exactly a window old has left it.
        #expect(limit.wait(events: [1000, 31_000], now: 61_000) == nil)
        #expect(limit.wait(events: [31_000, 1000, 50_000], now: 55_000) == 36_000)
        // Events in the future of `now` (a clock moved back) are ignored.
        #expect(limit.wait(events: [90_000, 95_000], now: 60_000) == nil)
    }

    @Test("of several limits, the one refusing longest wins")
    func refusals() {
        let limits: [RateLimit] = [.perMinute(1), .perHour(3), .perDay(10)]
        #expect(RateLimit.refusal(limits, events: [], now: 0) == nil)
        let minute = RateLimit.refusal(limits, events: [10_000], now: 20_000)
        #expect(minute?.0 == .perMinute(1) && minute?.1 == 50_000)
        let hour = RateLimit.refusal(limits, events: [0, 60_000, 120_000], now: 190_000)
        #expect(hour?.0 == .perHour(3) && hour?.1 == 3_600_000 - 190_000)
    }

    @Test("Backoff: free failures cost nothing, then the wait doubles from the latest failure up to the cap")
    func backoff() {
        let backoff = Backoff(freeFailures: 3, baseMilliseconds: 1000, maximumMilliseconds: 5000)
        #expect(backoff.wait(failures: [], now: 0) == nil)
        #expect(backoff.wait(failures: [0, 10], now: 20) == nil)
        #expect(backoff.wait(failures: [0, 10, 20], now: 20) == 1000)
        #expect(backoff.wait(failures: [20, 0, 10], now: 520) == 500)
        #expect(backoff.wait(failures: [0, 10, 20], now: 1020) == nil)
        #expect(backoff.wait(failures: [0, 10, 20, 30], now: 30) == 2000)
        #expect(backoff.wait(failures: [0, 10, 20, 30, 40], now: 40) == 4000)
        #expect(backoff.wait(failures: [0, 10, 20, 30, 40, 50], now: 50) == 5000)
        // Hostile counts neither overflow nor take long; a clock set back never means more than one delay.
        #expect(backoff.delay(failures: 1_000_000) == 5000)
        #expect(backoff.delay(failures: Int.max) == 5000)
        #expect(backoff.wait(failures: [0, 10, 9_000_000], now: 20) == 1000)
        let huge = Backoff(freeFailures: 0, baseMilliseconds: 1, maximumMilliseconds: Int64.max)
        #expect(huge.delay(failures: 200) > 0)
    }

    @Test("waits in words")
    func words() {
        #expect(RateLimit.describe(milliseconds: 1) == "1 second")
        #expect(RateLimit.describe(milliseconds: 42_000) == "42 seconds")
        #expect(RateLimit.describe(milliseconds: 895_000) == "15 minutes")
        #expect(RateLimit.describe(milliseconds: 5 * 3_600_000) == "5 hours")
    }
}
