/// PBKDF2 with HMAC-SHA256 as its pseudorandom function (RFC 8018 §5.2), written over ``HMACSHA256``.
///
/// Scrypt uses it with one iteration on either side of its memory-hard mixing; see ``PortableScrypt``.
package enum PBKDF2SHA256 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
    ///
    /// - Parameters:
    ///   - password: The secret, used as the HMAC key.
    ///   - salt: The salt; each output block hashes it followed by the block's 1-based index.
    ///   - iterations: At least 1.
    ///   - length: At least 1 and at most (2³² − 1) × 32 bytes.
    /// - Returns: `length` derived bytes.
    package static func derive(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
        let blocks = (length + HMACSHA256.codeCount - 1) / HMACSHA256.codeCount
        precondition(length >= 1 && blocks <= Int(UInt32.max), "PBKDF2 output length out of range")
        var output: [UInt8] = []
        output.reserveCapacity(blocks * HMACSHA256.codeCount)
        var message = salt + [0, 0, 0, 0]
        for index in 1...blocks {
            let counter = UInt32(index)
            for byte in 0..<4 {
                message[salt.count + byte] = UInt8(truncatingIfNeeded: counter >> (24 - 8 * byte))
            }
            var link = HMACSHA256.authenticationCode(key: password, message: message)
            var block = link
            for _ in 1..<iterations {
                link = HMACSHA256.authenticationCode(key: password, message: link)
                for position in block.indices {
                    block[position] ^= link[position]
                }
            }
            output += block
        }
        output.removeSubrange(length...)
        return output
    }
}
