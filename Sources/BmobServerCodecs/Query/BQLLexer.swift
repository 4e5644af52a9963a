package import BmobWire

/// Splits a BQL statement into ``BQLToken``s.
///
/// Words are ASCII letters, digits and underscores, not starting with a digit; names in backticks may hold
/// anything but a backtick. Strings take single or double quotes, a doubled quote for itself, and the escapes
/// `\\ \' \" \n \r \t \0 \b \Z`; any other backslash pair is kept as written, so `'\d+'` reaches a `regexp` and
/// `'100\%'` a `like` intact. Numbers are decimal with an optional fraction and exponent; right after a `.`
/// only digits are read, so `list.0.name` is a path. Every failure is a 601 ``QueryParseError`` at the
/// offending byte.
package enum BQLLexer {
    /// The tokens of `text`, ending with ``BQLToken/Kind/end``.
    ///
    /// - Throws: ``QueryParseError`` with code 601.
    package static func tokenize(_ text: String) throws(QueryParseError) -> [BQLToken] {
        let bytes = Array(text.utf8)
        var tokens: [BQLToken] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                tokens.append(
                    BQLToken(kind: .word(String(decoding: bytes[start..<index], as: UTF8.self)), offset: start))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let afterDot =
                    tokens.last.map { $0.kind == .symbol(".") && $0.offset == start - 1 } ?? false
                let (value, end) = try number(bytes, from: start, digitsOnly: afterDot)
                tokens.append(BQLToken(kind: .number(value), offset: start))
                index = end
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                let (value, end) = try string(bytes, from: start)
                tokens.append(BQLToken(kind: .string(value), offset: start))
                index = end
            case UInt8(ascii: "`"):
                guard let close = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "`")) else {
                    throw .invalidBQL("expected a closing '`' for the name", offset: start)
                }
                guard close > start + 1 else {
                    throw .invalidBQL("expected a name between the backticks", offset: start)
                }
                let name = String(decoding: bytes[(start + 1)..<close], as: UTF8.self)
                tokens.append(BQLToken(kind: .quotedIdentifier(name), offset: start))
                index = close + 1
            case UInt8(ascii: "?"):
                tokens.append(BQLToken(kind: .placeholder, offset: start))
                index += 1
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "!"):
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                var symbol = String(UnicodeScalar(byte))
                if next == UInt8(ascii: "=") || (byte == UInt8(ascii: "<") && next == UInt8(ascii: ">")) {
                    symbol.append(Character(UnicodeScalar(next)))
                }
                guard symbol != "!" else { throw .invalidBQL("expected '=' after '!'", offset: start) }
                tokens.append(BQLToken(kind: .symbol(symbol), offset: start))
                index += symbol.utf8.count
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: ":"),
                UInt8(ascii: ";"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                tokens.append(BQLToken(kind: .symbol(String(UnicodeScalar(byte))), offset: start))
                index += 1
            default:
                throw .invalidBQL("unexpected character", offset: start)
            }
        }
        tokens.append(BQLToken(kind: .end, offset: bytes.count))
        return tokens
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func number(
        _ bytes: [UInt8], from start: Int, digitsOnly: Bool
    ) throws(QueryParseError) -> (JSONValue, Int) {
        var index = start
        var isInteger = true
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if !digitsOnly, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), isDigit(bytes[index + 1]) {
            isInteger = false
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if !digitsOnly, index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            var end = index + 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            if end < bytes.count, isDigit(bytes[end]) {
                isInteger = false
                index = end
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
        }
        if index < bytes.count, isWordByte(bytes[index]) {
            throw .invalidBQL("expected a number, but it runs into a name", offset: start)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return (.int(value), index) }
        guard let value = Double(text), value.isFinite else { throw .invalidBQL("number out of range", offset: start) }
        return (.double(value), index)
    }

    private static func string(_ bytes: [UInt8], from start: Int) throws(QueryParseError) -> (String, Int) {
        let quote = bytes[start]
        var output: [UInt8] = []
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                if index + 1 < bytes.count, bytes[index + 1] == quote {
                    output.append(quote)
                    index += 2
                    continue
                }
                return (String(decoding: output, as: UTF8.self), index + 1)
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): output.append(next)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "0"): output.append(0x00)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "Z"): output.append(0x1A)
                default: output += [byte, next]
                }
                index += 2
                continue
            }
            output.append(byte)
            index += 1
        }
        throw .invalidBQL("expected a closing quote for the string", offset: start)
    }
}
