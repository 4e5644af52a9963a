/// Renders milliseconds since 1970 as an RFC 3339 UTC time with milliseconds (`2026-12-03T04:05:06.789Z`),
/// without Foundation's formatters: the access log writes one per request.
package enum LogTimestamp {
    package static func format(milliseconds: Int64) -> String {
        let millisecondsPerDay: Int64 = 86_400_000
        var days = milliseconds / millisecondsPerDay
        var rest = milliseconds % millisecondsPerDay
        if rest < 0 {
            rest += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        let millisecond = rest % 1000
        let second = (rest / 1000) % 60
        let minute = (rest / 60_000) % 60
        let hour = rest / 3_600_000
        var text = ""
        text.reserveCapacity(24)
        append(year, width: 4, to: &text)
        text += "-"
        append(month, width: 2, to: &text)
        text += "-"
        append(day, width: 2, to: &text)
        text += "T"
        append(hour, width: 2, to: &text)
        text += ":"
        append(minute, width: 2, to: &text)
        text += ":"
        append(second, width: 2, to: &text)
        text += "."
        append(millisecond, width: 3, to: &text)
        text += "Z"
        return text
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01, by 400-year eras of 146,097 days.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01, so that leap days end each era's years
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func append(_ value: Int64, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }
}
