/// Turns the `str()` of a Python dict into JSON text, for the `having` parameter that the Python clients send
/// as `{'_sumScore': {'$gt': 1}}`.
package enum PythonLiteral {
    /// The JSON text for a Python literal: single-quoted strings become double-quoted ones (with `"` inside them
    /// escaped and `\'` unescaped), and `True`, `False` and `None` outside strings become `true`, `false` and
    /// `null`. Double-quoted strings are copied unchanged. `nil` when a string is left unterminated.
    package static func jsonText(fromRepr text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                guard let end = copyString(bytes, from: index, quote: byte, to: &output) else { return nil }
                index = end
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
                var end = index
                while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
                let word = bytes[index..<end]
                switch String(decoding: word, as: UTF8.self) {
                case "True": output += Array("true".utf8)
                case "False": output += Array("false".utf8)
                case "None": output += Array("null".utf8)
                default: output += word
                }
                index = end
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Copies the string starting at `start` as a JSON string; returns the index after its closing quote.
    private static func copyString(_ bytes: [UInt8], from start: Int, quote: UInt8, to output: inout [UInt8]) -> Int? {
        output.append(UInt8(ascii: "\""))
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                output.append(UInt8(ascii: "\""))
                return index + 1
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                if quote == UInt8(ascii: "'"), next == UInt8(ascii: "'") {
                    output.append(next)
                } else {
                    output += [byte, next]
                }
                index += 2
                continue
            }
            if quote == UInt8(ascii: "'"), byte == UInt8(ascii: "\"") {
                output += [UInt8(ascii: "\\"), byte]
            } else {
                output.append(byte)
            }
            index += 1
        }
        return nil
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
