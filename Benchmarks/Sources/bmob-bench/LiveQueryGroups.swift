/// Which group a benchmark write goes to: a fixed pseudo-random function of its sequence number, so that the
/// writer (building the REST create) and the receive loop (knowing which subscribers must see it) agree without
/// talking, and the socket.io reference (`bmob-bench fanout --groups N`) sends byte-for-byte the same writes.
enum LiveQueryGroups {
    /// The group of write `seq`, in `0..<groups`: splitmix64 of the sequence number, so consecutive writes land
    /// in unrelated groups.
    ///
    /// - Parameters:
    ///   - seq: the write's sequence number (any integer; warm-up writes are negative).
    ///   - groups: how many groups there are, at least 1.
    /// - Returns: the group.
    static func group(ofWrite seq: Int, groups: Int) -> Int {
        var mixed = UInt64(bitPattern: Int64(seq)) &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Int(mixed % UInt64(max(1, groups)))
    }
}
