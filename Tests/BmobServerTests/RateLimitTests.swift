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

    @Test("waits in words")
    func words() {
        #expect(RateLimit.describe(milliseconds: 1) == "1 second")
        #expect(RateLimit.describe(milliseconds: 42_000) == "42 seconds")
        #expect(RateLimit.describe(milliseconds: 895_000) == "15 minutes")
        #expect(RateLimit.describe(milliseconds: 5 * 3_600_000) == "5 hours")
    }
}
