/// Scrypt (RFC 7914) in Swift over ``PBKDF2SHA256``: the implementation ``Scrypt`` uses on Apple platforms,
/// where CommonCrypto has no scrypt.
///
/// It is compiled everywhere so that Linux test runs check it against OpenSSL's `EVP_PBE_scrypt` and the RFC's
/// vectors. Callers validate parameters first (``Scrypt/workingMemory(logN:r:p:)``); this type only asserts.
package enum PortableScrypt {
    /// Derives `length` bytes; parameters must already be valid and within ``Scrypt/maximumMemory``.
    package static func derive(password: [UInt8], salt: [UInt8], logN: Int, r: Int, p: Int, length: Int) -> [UInt8] {
        precondition(Scrypt.workingMemory(logN: logN, r: r, p: p) != nil && length >= 1, "invalid scrypt parameters")
        let blockBytes = 128 * r
        var blocks = PBKDF2SHA256.derive(password: password, salt: salt, iterations: 1, length: p * blockBytes)
        let words = 32 * r
        let n = 1 << logN
        // One allocation for the ROMix table V (n blocks), the working block X and BlockMix's output Y.
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: (n + 2) * words)
        defer { memory.deallocate() }
        let table = memory
        let x = memory + n * words
        let y = x + words
        for chunk in 0..<p {
            let base = chunk * blockBytes
            for word in 0..<words {
                let offset = base + 4 * word
                x[word] =
                    UInt32(blocks[offset]) | UInt32(blocks[offset + 1]) << 8 | UInt32(blocks[offset + 2]) << 16
                    | UInt32(blocks[offset + 3]) << 24
            }
            mix(x, scratch: y, table: table, n: n, r: r)
            for word in 0..<words {
                let offset = base + 4 * word
                let value = x[word]
                blocks[offset] = UInt8(truncatingIfNeeded: value)
                blocks[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
                blocks[offset + 2] = UInt8(truncatingIfNeeded: value >> 16)
                blocks[offset + 3] = UInt8(truncatingIfNeeded: value >> 24)
            }
        }
        return PBKDF2SHA256.derive(password: password, salt: blocks, iterations: 1, length: length)
    }

    /// ROMix (RFC 7914 §5) on the 32·r words at `x`, in place.
    private static func mix(
        _ x: UnsafeMutablePointer<UInt32>, scratch y: UnsafeMutablePointer<UInt32>,
        table: UnsafeMutablePointer<UInt32>, n: Int, r: Int
    ) {
        let words = 32 * r
        for index in 0..<n {
            (table + index * words).update(from: x, count: words)
            blockMix(x, into: y, r: r)
        }
        for _ in 0..<n {
            // Integerify: the first word of the last 64-byte sub-block, modulo n (n ≤ 2³² here).
            let index = Int(x[words - 16]) & (n - 1)
            let row = table + index * words
            for word in 0..<words {
                x[word] ^= row[word]
            }
            blockMix(x, into: y, r: r)
        }
    }

    /// BlockMix with Salsa20/8 (RFC 7914 §4): reads the 2·r sub-blocks at `b`, leaves the result at `b`,
    /// using `y` (also 32·r words) as scratch.
    private static func blockMix(_ b: UnsafeMutablePointer<UInt32>, into y: UnsafeMutablePointer<UInt32>, r: Int) {
        var state = SalsaBlock(b + (2 * r - 1) * 16)
        for index in 0..<(2 * r) {
            state.mix(b + index * 16)
            // Even sub-blocks go to the first half of the output, odd ones to the second.
            let target = (index & 1) * r + index / 2
            state.store(y + target * 16)
        }
        b.update(from: y, count: 32 * r)
    }
}
