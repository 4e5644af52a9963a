import BmobWire

/// How scalar values are written in a PostgreSQL ARE, inside and outside bracket expressions.
///
/// ASCII letters, digits, `_` and the space stand for themselves. Other ASCII punctuation is preceded by `\`,
/// which in an ARE makes any non-alphanumeric character literal, in and out of brackets (so `\]`, `\-`, `\^`,
/// `\[` and `\\` can never open, close, negate or span anything). Line feed, tab and carriage return are `\n`,
/// `\t` and `\r`; every other scalar (control characters and all of non-ASCII) is a `\uXXXX` or `\UXXXXXXXX`
/// character-entry escape, which is valid in both places and as a range endpoint.
enum RegexPostgreSQLEscaping {
    /// The scalar values a PostgreSQL `text` can hold: every scalar but U+0000 (surrogates are not scalars).
    static let textScalars: [ClosedRange<UInt32>] = [0x1...0xD7FF, 0xE000...0x10FFFF]

    /// `value` written as one ARE character, valid both inside and outside a bracket expression.
    static func character(_ value: UInt32) -> String {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x20:
            return String(Character(Unicode.Scalar(UInt8(value))))
        case 0x21...0x7E:
            return "\\" + String(Character(Unicode.Scalar(UInt8(value))))
        case 0x0A:
            return "\\n"
        case 0x09:
            return "\\t"
        case 0x0D:
            return "\\r"
        case 0...0xFFFF:
            return "\\u" + hex(value, digits: 4)
        default:
            return "\\U" + hex(value, digits: 8)
        }
    }

    /// `value` in upper-case hexadecimal, zero-padded to `digits`.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The body of a bracket expression (without `[`, `^` or `]`) for sorted, disjoint, non-adjacent `ranges`:
    /// a single scalar alone, two consecutive ones side by side, longer runs as `first-last`.
    static func bracketBody(_ ranges: [ClosedRange<UInt32>]) -> String {
        var body = ""
        for range in ranges {
            body += character(range.lowerBound)
            if range.upperBound == range.lowerBound { continue }
            if range.upperBound > range.lowerBound + 1 { body += "-" }
            body += character(range.upperBound)
        }
        return body
    }

    /// `ranges` (sorted, disjoint, non-adjacent) restricted to ``textScalars``: U+0000 and surrogate values
    /// removed, since no PostgreSQL text contains them.
    static func restrictedToText(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges {
            for allowed in textScalars where range.overlaps(allowed) {
                result.append(max(range.lowerBound, allowed.lowerBound)...min(range.upperBound, allowed.upperBound))
            }
        }
        return result
    }

    /// The values of ``textScalars`` outside `ranges` (sorted, disjoint, within ``textScalars``).
    static func textComplement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        restrictedToText(RegexScalarSet.complement(ranges))
    }
}
