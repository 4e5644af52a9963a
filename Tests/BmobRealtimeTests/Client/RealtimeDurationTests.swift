import BmobRealtime
import Testing

/// The realtime clients' own duration (below `Duration`'s iOS 16): units, arithmetic, and the edges a server's
/// announced timeout or a long backoff can reach.
@Suite("RealtimeDuration")
struct RealtimeDurationTests {
    @Test("units agree and convert to TimeInterval and sleep nanoseconds")
    func units() {
        #expect(RealtimeDuration.seconds(2) == .milliseconds(2000))
        #expect(RealtimeDuration.seconds(1.5) == .milliseconds(1500))
        #expect(RealtimeDuration.seconds(Int64(3)).nanoseconds == 3_000_000_000)
        #expect(RealtimeDuration.milliseconds(250).timeInterval == 0.25)
        #expect(RealtimeDuration.seconds(1).sleepNanoseconds == 1_000_000_000)
        #expect(RealtimeDuration.zero < .milliseconds(1))
        #expect(RealtimeDuration.seconds(1.5).description == "1.5 seconds")
    }

    @Test("arithmetic as the backoff uses it")
    func arithmetic() {
        #expect(RealtimeDuration.seconds(1) + .milliseconds(500) == .milliseconds(1500))
        #expect(RealtimeDuration.seconds(4) - .seconds(1) == .seconds(3))
        #expect(RealtimeDuration.seconds(4) * 2 == .seconds(8))
        #expect(RealtimeDuration.seconds(4) * 0.75 == .seconds(3))
        #expect(RealtimeDuration.seconds(3) / 2 == .milliseconds(1500))
    }

    @Test("hostile values saturate instead of trapping: huge, negative, NaN and infinite inputs")
    func edges() {
        let largest = RealtimeDuration(nanoseconds: .max)
        let smallest = RealtimeDuration(nanoseconds: .min)
        #expect(RealtimeDuration.seconds(Int.max) == largest)
        #expect(RealtimeDuration.seconds(Int.min) == smallest)
        #expect(RealtimeDuration.milliseconds(UInt64.max) == largest)
        #expect(RealtimeDuration.seconds(Double.nan) == .zero)
        #expect(RealtimeDuration.seconds(Double.infinity) == largest)
        #expect(RealtimeDuration.seconds(-Double.infinity) == smallest)
        #expect(largest + .seconds(1) == largest)
        #expect(smallest - .seconds(1) == smallest)
        #expect(largest * 2 == largest)
        #expect(largest * -2 == smallest)
        #expect(largest * 1e300 == largest)
        #expect(RealtimeDuration.seconds(1) * Double.nan == .zero)
        #expect(smallest / -1 == largest)
        #expect(RealtimeDuration.seconds(-5).sleepNanoseconds == 0)
    }
}
