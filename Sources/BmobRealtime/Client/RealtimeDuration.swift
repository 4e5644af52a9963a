package import Foundation

/// A length of time for the realtime clients' timeouts, timers and reconnection backoff, counted in nanoseconds.
///
/// The realtime clients run on iOS 15, macOS 12, tvOS 15 and watchOS 8, below the standard library's `Duration`
/// (iOS 16, macOS 13, tvOS 16, watchOS 9), so they count time in this value instead. Arithmetic saturates at the
/// bounds of `Int64` rather than trapping: a backoff cap doubled past them stays the largest length.
package struct RealtimeDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The length in nanoseconds.
    package var nanoseconds: Int64

    /// A length of `nanoseconds`.
    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// No time.
    package static let zero = RealtimeDuration(nanoseconds: 0)

    /// `seconds` whole seconds, saturating.
    package static func seconds(_ seconds: some BinaryInteger) -> RealtimeDuration {
        scaled(Int64(clamping: seconds), by: 1_000_000_000)
    }

    /// `seconds` seconds, rounded to the nearest nanosecond and saturating; NaN counts as zero.
    package static func seconds(_ seconds: Double) -> RealtimeDuration {
        RealtimeDuration(nanoseconds: saturating(seconds * 1e9))
    }

    /// `milliseconds` milliseconds, saturating.
    package static func milliseconds(_ milliseconds: some BinaryInteger) -> RealtimeDuration {
        scaled(Int64(clamping: milliseconds), by: 1_000_000)
    }

    /// The length in seconds, for Foundation's `TimeInterval` parameters.
    package var timeInterval: TimeInterval { Double(nanoseconds) / 1e9 }

    /// The length in nanoseconds for `Task.sleep(nanoseconds:)`: zero for a negative length.
    package var sleepNanoseconds: UInt64 { UInt64(Swift.max(0, nanoseconds)) }

    /// Seconds with up to nine decimals, as `Duration` prints them (`1.5 seconds`).
    package var description: String { "\(timeInterval) seconds" }

    package static func < (lhs: RealtimeDuration, rhs: RealtimeDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    package static func + (lhs: RealtimeDuration, rhs: RealtimeDuration) -> RealtimeDuration {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return RealtimeDuration(nanoseconds: overflow ? (rhs.nanoseconds > 0 ? .max : .min) : sum)
    }

    package static func - (lhs: RealtimeDuration, rhs: RealtimeDuration) -> RealtimeDuration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        return RealtimeDuration(nanoseconds: overflow ? (rhs.nanoseconds < 0 ? .max : .min) : difference)
    }

    package static func * (lhs: RealtimeDuration, rhs: Int) -> RealtimeDuration {
        scaled(lhs.nanoseconds, by: Int64(rhs))
    }

    package static func * (lhs: RealtimeDuration, rhs: Double) -> RealtimeDuration {
        RealtimeDuration(nanoseconds: saturating(Double(lhs.nanoseconds) * rhs))
    }

    package static func / (lhs: RealtimeDuration, rhs: Int) -> RealtimeDuration {
        precondition(rhs != 0, "a duration divided by zero")
        return RealtimeDuration(nanoseconds: lhs.nanoseconds == .min && rhs == -1 ? .max : lhs.nanoseconds / Int64(rhs))
    }

    private static func scaled(_ value: Int64, by factor: Int64) -> RealtimeDuration {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard overflow else { return RealtimeDuration(nanoseconds: product) }
        return RealtimeDuration(nanoseconds: (value < 0) == (factor < 0) ? .max : .min)
    }

    private static func saturating(_ nanoseconds: Double) -> Int64 {
        guard !nanoseconds.isNaN else { return 0 }
        guard nanoseconds < 9.2e18 else { return .max }
        guard nanoseconds > -9.2e18 else { return .min }
        return Int64(nanoseconds.rounded())
    }
}
