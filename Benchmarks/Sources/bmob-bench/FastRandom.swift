/// xorshift64*: ids and scores without a system call per row, so the reference measures SQLite alone.
struct FastRandom {
    var state: UInt64
    /// The last objectId's value.
    var lastId: UInt64

    init() {
        var seed = UInt64(0)
        while seed == 0 { seed = UInt64.random(in: 1...UInt64.max) }
        state = seed
        lastId = UInt64.random(in: 0..<(1 << 39))
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A 10-character hex objectId as the server makes them: ascending by a random stride of 1…4096.
    mutating func objectId() -> String {
        lastId = (lastId + 1 + next() % 4096) & ((1 << 40) - 1)
        let hex = String(lastId, radix: 16)
        return String(repeating: "0", count: 10 - hex.count) + hex
    }
}
