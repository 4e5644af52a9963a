/// Blowfish state under bcrypt's expensive key schedule ("EksBlowfish", Provos and Mazières, 1999).
///
/// The 1042 words live in one allocation owned by this non-copyable value, read and written through a raw
/// pointer: the schedule runs hundreds of thousands of block encryptions per hash, even in debug builds.
struct EksBlowfish: ~Copyable {
    /// P-array (18 words), then S-boxes 0 to 3 (256 words each).
    private let state: UnsafeMutablePointer<UInt32>

    /// Blowfish's initial state, from ``BlowfishTables/initial``.
    init() {
        state = .allocate(capacity: BlowfishTables.wordCount)
        BlowfishTables.initial.words.withUnsafeBufferPointer { words in
            state.initialize(from: words.baseAddress!, count: BlowfishTables.wordCount)
        }
    }

    deinit {
        state.deallocate()
    }

    /// One key-schedule pass: XORs `key` (18 words, already cycled to that length) into the P-array, then replaces every P and S word in turn
    /// with the encryption of the previous block, which is first XORed with the next two `salt` words (four words,
    /// cycling) when a salt is given. Without a salt this is Blowfish's ordinary key schedule.
    mutating func expand(key: UnsafePointer<UInt32>, salt: UnsafePointer<UInt32>?) {
        for index in 0..<BlowfishTables.pCount {
            state[index] ^= key[index]
        }
        var left: UInt32 = 0
        var right: UInt32 = 0
        var saltIndex = 0
        var index = 0
        while index < BlowfishTables.wordCount {
            if let salt {
                left ^= salt[saltIndex]
                right ^= salt[saltIndex + 1]
                saltIndex ^= 2
            }
            encrypt(&left, &right)
            state[index] = left
            state[index + 1] = right
            index += 2
        }
    }

    /// Encrypts the 64-bit block (`left`, `right`) in place: sixteen Feistel rounds.
    func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        let p = state
        var l = left ^ p[0]
        var r = right
        var round = 1
        while round < 17 {
            r ^= feistel(l) ^ p[round]
            l ^= feistel(r) ^ p[round + 1]
            round += 2
        }
        left = r ^ p[17]
        right = l
    }

    /// Blowfish's F function: the four S-boxes indexed by the four bytes of `x`.
    @inline(__always) private func feistel(_ x: UInt32) -> UInt32 {
        let s = state + BlowfishTables.pCount
        let a = s[Int(x >> 24)]
        let b = s[256 + Int((x >> 16) & 0xFF)]
        let c = s[512 + Int((x >> 8) & 0xFF)]
        let d = s[768 + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }
}
