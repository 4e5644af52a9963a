/// Hexadecimal test vectors as bytes.
enum Hex {
    /// The bytes of `hex` (an even number of hex digits; spaces are skipped).
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)!
        }
    }
}
