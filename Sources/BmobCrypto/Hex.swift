/// Lowercase hexadecimal text of bytes, for digests, keys and tokens.
package enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether every byte of `text` is a lowercase hex digit, as ``encode(_:)`` writes them.
    package static func isLowercase(_ text: some Sequence<UInt8>) -> Bool {
        text.allSatisfy { digits.contains($0) }
    }
}
