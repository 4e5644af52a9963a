/// A 64-byte block held in sixteen registers for scrypt's BlockMix: each step XORs in a sub-block and applies
/// the Salsa20/8 core (RFC 7914 §3).
struct SalsaBlock {
    private var x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15: UInt32

    /// Loads sixteen words from `words`.
    init(_ words: UnsafePointer<UInt32>) {
        (x0, x1, x2, x3) = (words[0], words[1], words[2], words[3])
        (x4, x5, x6, x7) = (words[4], words[5], words[6], words[7])
        (x8, x9, x10, x11) = (words[8], words[9], words[10], words[11])
        (x12, x13, x14, x15) = (words[12], words[13], words[14], words[15])
    }

    /// Writes the sixteen words to `words`.
    func store(_ words: UnsafeMutablePointer<UInt32>) {
        (words[0], words[1], words[2], words[3]) = (x0, x1, x2, x3)
        (words[4], words[5], words[6], words[7]) = (x4, x5, x6, x7)
        (words[8], words[9], words[10], words[11]) = (x8, x9, x10, x11)
        (words[12], words[13], words[14], words[15]) = (x12, x13, x14, x15)
    }

    /// Replaces the block `B` by Salsa20/8(`B` XOR `input`).
    mutating func mix(_ input: UnsafePointer<UInt32>) {
        x0 ^= input[0]; x1 ^= input[1]; x2 ^= input[2]; x3 ^= input[3]
        x4 ^= input[4]; x5 ^= input[5]; x6 ^= input[6]; x7 ^= input[7]
        x8 ^= input[8]; x9 ^= input[9]; x10 ^= input[10]; x11 ^= input[11]
        x12 ^= input[12]; x13 ^= input[13]; x14 ^= input[14]; x15 ^= input[15]
        var (a0, a1, a2, a3, a4, a5, a6, a7) = (x0, x1, x2, x3, x4, x5, x6, x7)
        var (a8, a9, a10, a11, a12, a13, a14, a15) = (x8, x9, x10, x11, x12, x13, x14, x15)
        // Four double rounds: columns, then rows.
        for _ in 0..<4 {
            a4 ^= rotate(a0 &+ a12, 7); a8 ^= rotate(a4 &+ a0, 9)
            a12 ^= rotate(a8 &+ a4, 13); a0 ^= rotate(a12 &+ a8, 18)
            a9 ^= rotate(a5 &+ a1, 7); a13 ^= rotate(a9 &+ a5, 9)
            a1 ^= rotate(a13 &+ a9, 13); a5 ^= rotate(a1 &+ a13, 18)
            a14 ^= rotate(a10 &+ a6, 7); a2 ^= rotate(a14 &+ a10, 9)
            a6 ^= rotate(a2 &+ a14, 13); a10 ^= rotate(a6 &+ a2, 18)
            a3 ^= rotate(a15 &+ a11, 7); a7 ^= rotate(a3 &+ a15, 9)
            a11 ^= rotate(a7 &+ a3, 13); a15 ^= rotate(a11 &+ a7, 18)

            a1 ^= rotate(a0 &+ a3, 7); a2 ^= rotate(a1 &+ a0, 9)
            a3 ^= rotate(a2 &+ a1, 13); a0 ^= rotate(a3 &+ a2, 18)
            a6 ^= rotate(a5 &+ a4, 7); a7 ^= rotate(a6 &+ a5, 9)
            a4 ^= rotate(a7 &+ a6, 13); a5 ^= rotate(a4 &+ a7, 18)
            a11 ^= rotate(a10 &+ a9, 7); a8 ^= rotate(a11 &+ a10, 9)
            a9 ^= rotate(a8 &+ a11, 13); a10 ^= rotate(a9 &+ a8, 18)
            a12 ^= rotate(a15 &+ a14, 7); a13 ^= rotate(a12 &+ a15, 9)
            a14 ^= rotate(a13 &+ a12, 13); a15 ^= rotate(a14 &+ a13, 18)
        }
        x0 &+= a0; x1 &+= a1; x2 &+= a2; x3 &+= a3
        x4 &+= a4; x5 &+= a5; x6 &+= a6; x7 &+= a7
        x8 &+= a8; x9 &+= a9; x10 &+= a10; x11 &+= a11
        x12 &+= a12; x13 &+= a13; x14 &+= a14; x15 &+= a15
    }

    @inline(__always) private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
