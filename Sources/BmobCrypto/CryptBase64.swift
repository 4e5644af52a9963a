/// Base64 without padding over a chosen alphabet: the standard one for our scrypt strings, bcrypt's own
/// (`./A-Za-z0-9`, same bit order) for imported bcrypt strings.
///
/// BmobCrypto keeps its own because BmobWire, which has the general codec, depends on this module.
struct CryptBase64: Sendable {
    /// RFC 4648 §4: `A–Z a–z 0–9 + /`.
    static let standard = CryptBase64(alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    /// bcrypt's: `. / A–Z a–z 0–9`.
    static let bcrypt = CryptBase64(alphabet: "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// The 64 characters, in value order.
    private let symbols: [UInt8]
    /// Value of each byte, or 0xFF for a byte outside the alphabet.
    private let values: [UInt8]

    private init(alphabet: String) {
        symbols = Array(alphabet.utf8)
        precondition(symbols.count == 64)
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, symbol) in symbols.enumerated() {
            values[Int(symbol)] = UInt8(value)
        }
        self.values = values
    }

    /// `bytes` encoded, without `=` padding: ⌈4·count / 3⌉ characters.
    func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if chunk > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if chunk > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0...chunk {
                text.append(symbols[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` when it holds a character outside the alphabet (padding included) or
    /// has a length no encoding produces.
    ///
    /// - Parameter requireZeroPadding: Whether the unused low bits of the last character must be zero, so that
    ///   every byte string has exactly one accepted encoding.
    func decode(_ text: some Collection<UInt8>, requireZeroPadding: Bool = true) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        if requireZeroPadding && buffer != 0 { return nil }
        return output
    }
}
