/// Random bytes from the operating system's generator, for keys and tokens.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `byteCount` random bytes as lowercase hex (two digits a byte): keys, tokens, link secrets.
    package static func hex(byteCount: Int) -> String {
        Hex.encode(bytes(byteCount))
    }
}
