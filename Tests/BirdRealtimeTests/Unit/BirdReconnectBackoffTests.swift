import BmobRealtime
@testable import BirdRealtime
import Testing

@Suite("BirdRealtime: reconnect backoff, full jitter between 1 s and 30 s")
struct BirdReconnectBackoffTests {
    let backoff = BirdReconnectBackoff()

    @Test("the cap doubles from 1 s per failure and stops at 30 s")
    func caps() {
        let caps = (1...8).map { backoff.cap(afterFailures: $0) }
        #expect(caps == [1, 2, 4, 8, 16, 30, 30, 30].map { RealtimeDuration.seconds($0) })
        #expect(backoff.cap(afterFailures: 10_000) == .seconds(30))
    }

    @Test("each delay is uniform in [1 s, cap]: the jitter's ends give the bounds, never outside")
    func bounds() {
        for failures in 1...12 {
            let cap = backoff.cap(afterFailures: failures)
            #expect(backoff.delay(afterFailures: failures, unit: 0) == .seconds(1))
            #expect(backoff.delay(afterFailures: failures, unit: 1) == cap)
            #expect(backoff.delay(afterFailures: failures, unit: 0.5) == .seconds(1) + (cap - .seconds(1)) / 2)
            for unit in [-1, 2, .nan, .infinity, 0.999_999] as [Double] {
                let delay = backoff.delay(afterFailures: failures, unit: unit)
                #expect(delay >= .seconds(1) && delay <= cap, "\(unit)")
            }
        }
    }
}
