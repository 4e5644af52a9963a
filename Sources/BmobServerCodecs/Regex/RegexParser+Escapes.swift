import BmobWire

extension RegexParser {
    /// An escape outside a class, after its backslash at `start`: a shorthand class, an anchor, a literal, or
    /// `\Q`/`\E`; `nil` for those that match nothing by themselves.
    mutating func parseEscape(at start: Int) throws(BoundedRegexError) -> Atom? {
        guard let letter = scalar(at: index) else { throw error("pattern ends with a backslash", at: start) }
        index += 1
        if let ranges = RegexScalarSet.shorthandRanges(letter) {
            return (addSet(RegexScalarSet(ranges: ranges)), 1, true)
        }
        switch letter {
        case "b": return (.assertion(.wordBoundary), 1, false)
        case "B": return (.assertion(.notWordBoundary), 1, false)
        case "A": return (.assertion(.textStart), 1, false)
        case "z": return (.assertion(.textEnd), 1, false)
        case "Z": return (.assertion(.textEndOrFinalNewline), 1, false)
        case "N":
            guard scalar(at: index) != "{" else { throw error("\\N{…} is not supported", at: start) }
            return (.any(dotAll: false), 1, true)
        case "Q":
            quoting = true
            return nil
        case "E":
            return nil
        case "1"..."9", "g", "k":
            throw error("backreferences are not supported", at: start)
        case "G", "K", "p", "P", "X", "R", "C":
            throw error("\\\(letter) is not supported", at: start)
        default:
            guard let scalar = try parseScalarEscape(letter, at: start) else {
                throw error("unknown escape \\\(letter)", at: start)
            }
            return (literal(scalar), 1, true)
        }
    }

    /// The scalar an escape stands for, inside or outside a class, with ``index`` just past `letter`: control
    /// characters (`\t \n \r \f \e \a \cX`), code points (`\0oo \o{…} \xHH \x{H…} \uHHHH`) and escaped
    /// punctuation or non-ASCII scalars.
    ///
    /// - Returns: `nil` for an ASCII letter or digit that is not one of these, which the caller reports.
    /// - Throws: ``BoundedRegexError`` for a malformed code point escape.
    mutating func parseScalarEscape(_ letter: Unicode.Scalar, at start: Int) throws(BoundedRegexError)
        -> Unicode.Scalar?
    {
        switch letter {
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "e": return "\u{1B}"
        case "a": return "\u{07}"
        case "0":
            return try codePoint(radix: 8, maximumDigits: 2, allowingNone: true, at: start)
        case "o":
            guard scalar(at: index) == "{" else { throw error("\\o must be followed by {", at: start) }
            index += 1
            return try bracedCodePoint(radix: 8, at: start)
        case "x":
            if scalar(at: index) == "{" {
                index += 1
                return try bracedCodePoint(radix: 16, at: start)
            }
            return try codePoint(radix: 16, maximumDigits: 2, allowingNone: false, at: start)
        case "u":
            let end = index + 4
            let value = try codePoint(radix: 16, maximumDigits: 4, allowingNone: false, at: start)
            guard index == end else { throw error("\\u needs exactly four hexadecimal digits", at: start) }
            return value
        case "c":
            guard let control = scalar(at: index), (0x20...0x7E).contains(control.value) else {
                throw error("\\c must be followed by a printable ASCII character", at: start)
            }
            index += 1
            let upper = ("a"..."z").contains(control) ? control.value - 0x20 : control.value
            return Unicode.Scalar(UInt8(upper ^ 0x40))
        default:
            let isAlphanumeric =
                ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) || ("0"..."9").contains(letter)
            return isAlphanumeric ? nil : letter
        }
    }

    /// Up to `maximumDigits` digits in `radix` as a scalar; with `allowingNone`, no digit means NUL (`\0`).
    private mutating func codePoint(radix: UInt32, maximumDigits: Int, allowingNone: Bool, at start: Int)
        throws(BoundedRegexError) -> Unicode.Scalar
    {
        var value: UInt32 = 0
        var count = 0
        while count < maximumDigits, let digit = scalar(at: index).flatMap({ Self.digitValue($0, radix: radix) }) {
            value = value * radix + digit
            count += 1
            index += 1
        }
        guard count > 0 || allowingNone else {
            throw error("escape needs \(radix == 16 ? "hexadecimal" : "octal") digits", at: start)
        }
        return try validScalar(value, at: start)
    }

    /// Digits in `radix` up to a `}` (after the `{`), as a scalar.
    private mutating func bracedCodePoint(radix: UInt32, at start: Int) throws(BoundedRegexError) -> Unicode.Scalar {
        var value: UInt32 = 0
        var count = 0
        while let digit = scalar(at: index).flatMap({ Self.digitValue($0, radix: radix) }) {
            value = min(value * radix + digit, 0x11_0000)
            count += 1
            index += 1
        }
        guard count > 0, scalar(at: index) == "}" else {
            throw error("malformed code point escape: digits and } expected", at: start)
        }
        index += 1
        return try validScalar(value, at: start)
    }

    /// `value` as a scalar, rejecting surrogates and values past U+10FFFF.
    private func validScalar(_ value: UInt32, at start: Int) throws(BoundedRegexError) -> Unicode.Scalar {
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape is not a valid Unicode scalar (surrogate or above U+10FFFF)", at: start)
        }
        return scalar
    }

    /// The value of `digit` in `radix` (8 or 16), or `nil`.
    private static func digitValue(_ digit: Unicode.Scalar, radix: UInt32) -> UInt32? {
        let value = digit.value
        let result: UInt32
        switch value {
        case 0x30...0x39: result = value - 0x30
        case 0x41...0x46: result = value - 0x41 + 10
        case 0x61...0x66: result = value - 0x61 + 10
        default: return nil
        }
        return result < radix ? result : nil
    }
}
