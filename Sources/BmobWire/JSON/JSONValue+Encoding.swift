extension JSONValue {
    /// The compact JSON text of this value, with object keys in sorted order so output is deterministic.
    public var jsonString: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The compact JSON text as UTF-8 bytes.
    package var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        appendJSON(to: &bytes)
        return bytes
    }

    /// Appends the compact JSON text of this value to `bytes`.
    package func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            ASCIIDecimal.append(value, to: &bytes)
        case .double(let value):
            Self.appendDouble(value, to: &bytes)
        case .string(let value):
            Self.appendString(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                element.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // Sorting the pairs, not the keys, spares a hash lookup per member.
            for (offset, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Integral doubles print without a fraction (`3`, not `3.0`), as JavaScript clients expect;
    /// non-finite values have no JSON form and print as `null`.
    private static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            ASCIIDecimal.append(Int64(value), to: &bytes)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    package static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Copy runs that need no escaping in one go; most strings are a single run.
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            if runStart < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
