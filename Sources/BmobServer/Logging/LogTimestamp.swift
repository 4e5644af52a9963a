import BmobWire

/// Renders milliseconds since 1970 as an RFC 3339 UTC time with milliseconds (`2026-12-03T04:05:06.789Z`), as bytes,
/// without Foundation's formatters: the access log writes one per request.
package enum LogTimestamp {
    /// The most bytes ``put(_:into:)`` writes.
    static let maximumLength = 32

    package static func format(milliseconds: Int64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            var cursor = ByteCursor(buffer)
            put(milliseconds, into: &cursor)
            return String(decoding: cursor.written, as: UTF8.self)
        }
    }

    static func put(_ milliseconds: Int64, into cursor: inout ByteCursor) {
        let (year, month, day) = BmobDateFormat.civilDate(millisecondsSince1970: milliseconds)
        let millisecondsPerDay: Int64 = 86_400_000
        let rest = UInt64((milliseconds % millisecondsPerDay + millisecondsPerDay) % millisecondsPerDay)
        cursor.putDecimal(UInt64(max(0, year)), width: 4)
        cursor.put(UInt8(ascii: "-"))
        cursor.putDecimal(UInt64(month), width: 2)
        cursor.put(UInt8(ascii: "-"))
        cursor.putDecimal(UInt64(day), width: 2)
        cursor.put(UInt8(ascii: "T"))
        cursor.putDecimal(rest / 3_600_000, width: 2)
        cursor.put(UInt8(ascii: ":"))
        cursor.putDecimal((rest / 60_000) % 60, width: 2)
        cursor.put(UInt8(ascii: ":"))
        cursor.putDecimal((rest / 1000) % 60, width: 2)
        cursor.put(UInt8(ascii: "."))
        cursor.putDecimal(rest % 1000, width: 3)
        cursor.put(UInt8(ascii: "Z"))
    }
}
