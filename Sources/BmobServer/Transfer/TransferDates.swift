import BmobWire
import Foundation

/// The dates of exported files: ISO 8601 in UTC with milliseconds (`2026-01-02T03:04:05.678Z`, Parse's form),
/// so that a round trip keeps them to the millisecond; imports also read Bmob's `YYYY-MM-DD HH:mm:ss`.
package enum TransferDates {
    /// `milliseconds` since 1970 as ISO 8601 with milliseconds, in UTC.
    package static func iso(_ milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = Int(milliseconds - seconds * 1000)
        let text = BmobDateFormat.format(secondsSince1970: seconds).replacingOccurrences(of: " ", with: "T")
        let digits = String(fraction)
        return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// A system date as files carry it: a string in either form, a `{"__type":"Date","iso":…}`, or MongoDB's
    /// `{"$date": …}` (a string or milliseconds).
    package static func milliseconds(_ value: JSONValue) -> Int64? {
        switch value {
        case .string(let text):
            return BmobDateFormat.parse(text)
        case .object(let members):
            if let iso = members["iso"]?.stringValue, members["__type"]?.stringValue == "Date" {
                return BmobDateFormat.parse(iso)
            }
            if let date = members["$date"] {
                if let number = date.int64Value { return number }
                return date.stringValue.flatMap(BmobDateFormat.parse)
            }
            return nil
        default:
            return nil
        }
    }
}
