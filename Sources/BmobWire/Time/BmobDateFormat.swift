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
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) "
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
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

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
