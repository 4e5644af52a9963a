/// Standard base64 (RFC 4648 §4, `+` and `/`, `=` padding), as the native protocol's bodies use it.
package enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Sextet values by byte; 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`, padded.
    package static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let value = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return output
    }

    /// The base64 text of `bytes` as a string.
    package static func encodeString(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encode(bytes), as: UTF8.self)
    }

    /// Decodes base64 text, or `nil` when it is not base64. ASCII whitespace is skipped (some clients wrap
    /// lines) and the trailing `=` padding may be missing; anything else outside the alphabet is an error.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var sextets = 0
        var padding = 0
        for byte in text {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: "="):
                padding += 1
                guard padding <= 2 else { return nil }
                continue
            default:
                // Data after padding is not base64.
                guard padding == 0 else { return nil }
                let value = values[Int(byte)]
                guard value != 0xFF else { return nil }
                accumulator = accumulator << 6 | UInt32(value)
                sextets += 1
                if sextets == 4 {
                    output.append(UInt8(accumulator >> 16 & 0xFF))
                    output.append(UInt8(accumulator >> 8 & 0xFF))
                    output.append(UInt8(accumulator & 0xFF))
                    accumulator = 0
                    sextets = 0
                }
            }
        }
        switch sextets {
        case 0:
            guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            output.append(UInt8(accumulator >> 4 & 0xFF))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            output.append(UInt8(accumulator >> 10 & 0xFF))
            output.append(UInt8(accumulator >> 2 & 0xFF))
        default:
            return nil
        }
        return output
    }
}
