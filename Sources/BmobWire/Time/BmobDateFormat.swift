/// Bmob's date text, `YYYY-MM-DD HH:MM:SS` (no `T`, no zone), in a given UTC offset.
///
/// Pure arithmetic on the proleptic Gregorian calendar (no Foundation, no time zone database), so the server
/// and the SDK format identically everywhere.
package enum BmobDateFormat {
    /// Formats `seconds` since 1970-01-01 UTC as seen at `offsetSeconds` east of UTC.
    package static func format(secondsSince1970 seconds: Int64, offsetSeconds: Int = 0) -> String {
        let local = seconds + Int64(offsetSeconds)
        let days = floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else {
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) "
                + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        }
        // Every response carries several dates: write the 19 bytes directly rather than through interpolation.
        return String(unsafeUninitializedCapacity: 19) { buffer in
            write(year: year, month: month, day: day, secondOfDay: secondOfDay, into: buffer)
            return 19
        }
    }

    /// Appends `format(secondsSince1970:offsetSeconds:)` as a JSON string, quotes included: what responses
    /// need, without making a `String` and scanning it for characters to escape (a date has none).
    package static func appendJSONString(secondsSince1970 seconds: Int64, offsetSeconds: Int = 0, to bytes: inout [UInt8]) {
        let local = seconds + Int64(offsetSeconds)
        let days = floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else {
            JSONValue.appendString(format(secondsSince1970: seconds, offsetSeconds: offsetSeconds), to: &bytes)
            return
        }
        let start = bytes.count
        bytes.append(contentsOf: #""0000-00-00 00:00:00""#.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            write(
                year: year, month: month, day: day, secondOfDay: secondOfDay,
                into: UnsafeMutableBufferPointer(rebasing: buffer[(start + 1)..<(start + 20)]))
        }
    }

    /// The 19 bytes of `YYYY-MM-DD HH:MM:SS` into `buffer` (a year of 0…9999).
    private static func write(year: Int, month: Int, day: Int, secondOfDay: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        func put(_ value: Int, _ width: Int, at offset: Int) {
            var value = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0)
        buffer[4] = UInt8(ascii: "-")
        put(month, 2, at: 5)
        buffer[7] = UInt8(ascii: "-")
        put(day, 2, at: 8)
        buffer[10] = UInt8(ascii: " ")
        put(secondOfDay / 3600, 2, at: 11)
        buffer[13] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, 2, at: 14)
        buffer[16] = UInt8(ascii: ":")
        put(secondOfDay % 60, 2, at: 17)
    }

    /// Parses the date forms Bmob clients send into milliseconds since 1970 UTC:
    /// `YYYY-MM-DD HH:MM:SS` (UTC, Bmob's own form), `YYYY-MM-DDTHH:MM:SS` with optional `.fff` fractions and
    /// a `Z` or `±HH:MM` zone (JavaScript, PHP's `date("c")`), and `YYYY-MM-DD` (midnight UTC).
    package static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var milliseconds = 0
        var offsetSeconds = 0
        var index = 10
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "T"),
                let h = number(index + 1..<index + 3), bytes.count > index + 3, bytes[index + 3] == UInt8(ascii: ":"),
                let m = number(index + 4..<index + 6)
            else { return nil }
            hour = h
            minute = m
            index += 6
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                guard let s = number(index + 1..<index + 3) else { return nil }
                second = s
                index += 3
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var digits = 0
                var fraction = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    if digits < 3 { fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                if digits < 3 {
                    for _ in digits..<3 { fraction *= 10 }
                }
                milliseconds = fraction
            }
            if index < bytes.count {
                guard let offset = parseOffset(String(decoding: bytes[index...], as: UTF8.self)) else { return nil }
                offsetSeconds = offset
                index = bytes.count
            }
            guard hour < 24, minute < 60, second < 61 else { return nil }
        }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return seconds * 1000 + Int64(milliseconds)
    }

    /// Formats milliseconds since 1970 UTC as Bmob's UTC date text (sub-second part dropped).
    package static func format(millisecondsSince1970 milliseconds: Int64) -> String {
        format(secondsSince1970: floorDivide(milliseconds, 1000))
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's days-from-civil algorithm).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses a UTC offset written `+08:00`, `-0530`, `+8`, `Z` or `UTC`, into seconds east of UTC.
    package static func parseOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces()
        if trimmed == "Z" || trimmed.uppercased() == "UTC" || trimmed.uppercased() == "GMT" { return 0 }
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let digits = trimmed.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(digits)
        else { return nil }
        let hours = digits.count <= 2 ? value : value / 100
        let minutes = digits.count <= 2 ? 0 : value % 100
        guard hours <= 14, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "-" ? -seconds : seconds
    }

    /// Writes an offset as `+08:00`.
    package static func formatOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        return "\(sign)\(pad(magnitude / 3600, 2)):\(pad(magnitude / 60 % 60, 2))"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The UTC year, month and day of an instant in milliseconds since 1970.
    package static func civilDate(millisecondsSince1970 milliseconds: Int64) -> (year: Int, month: Int, day: Int) {
        civilDate(daysSince1970: floorDivide(milliseconds, 86_400_000))
    }

    /// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's days-to-civil algorithm).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
