import BmobCrypto
import BmobWire

/// Builds the text of a plain-text mail (RFC 5322 headers, a UTF-8 body in base64), ready for
/// ``SMTPStateMachine``.
package enum SMTPMessage {
    /// The message bytes, lines ending in CRLF.
    ///
    /// - Parameters:
    ///   - from: the `From` address.
    ///   - to: the `To` address.
    ///   - subject: any text; non-ASCII subjects are sent as an RFC 2047 encoded word.
    ///   - body: the text; line ends are normalized to CRLF.
    ///   - milliseconds: the `Date`, milliseconds since 1970 UTC.
    package static func build(from: String, to: String, subject: String, body: String, milliseconds: Int64) -> [UInt8] {
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let messageId = SecureRandom.hex(byteCount: 16)
        var text = ""
        text += "From: \(from)\r\n"
        text += "To: \(to)\r\n"
        text += "Subject: \(encodedHeader(subject))\r\n"
        text += "Date: \(date(milliseconds: milliseconds))\r\n"
        text += "Message-ID: <\(messageId)@\(domain)>\r\n"
        text += "MIME-Version: 1.0\r\n"
        text += "Content-Type: text/plain; charset=utf-8\r\n"
        text += "Content-Transfer-Encoding: base64\r\n"
        text += "\r\n"
        let normalized = crlf(body)
        let encoded = Base64.encodeString(Array(normalized.utf8))
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            text += encoded[start..<end] + "\r\n"
            start = end
        }
        return Array(text.utf8)
    }

    /// `text` as is when it is printable ASCII, else `=?UTF-8?B?…?=`.
    package static func encodedHeader(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return "=?UTF-8?B?\(Base64.encodeString(Array(text.utf8)))?="
    }

    /// RFC 5322 date in UTC: `Tue, 16 Apr 2024 08:00:00 +0000`.
    package static func date(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // 1970-01-01 was a Thursday.
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        // Bmob's format is `YYYY-MM-DD HH:MM:SS`.
        let bmob = BmobDateFormat.format(secondsSince1970: seconds)
        let parts = bmob.split(separator: " ")
        let ymd = parts[0].split(separator: "-")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (Int(ymd[1]) ?? 1) - 1))]
        return "\(weekday), \(Int(ymd[2]) ?? 1) \(month) \(ymd[0]) \(parts[1]) +0000"
    }

    /// `text` with every line end (`\r\n`, `\r` or `\n`) written as `\r\n`.
    package static func crlf(_ text: String) -> String {
        var result = ""
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r":
                result += "\r\n"
                previousCR = true
            case "\n":
                if !previousCR { result += "\r\n" }
                previousCR = false
            default:
                previousCR = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
