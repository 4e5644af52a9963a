/// A parsed bcrypt string: `$2a$`, `$2b$` or `$2y$`, two cost digits, `$`, 22 characters of salt and 31 of
/// digest in bcrypt's base64, 60 characters in all.
struct StoredBcryptHash {
    /// The work factor, in ``Bcrypt/costs``.
    let cost: Int
    /// The 16-byte salt.
    let salt: [UInt8]
    /// The 23-byte digest.
    let digest: [UInt8]

    /// Parses `string`, or returns `nil` when it is not a well-formed bcrypt string with a supported cost.
    init?(_ string: String) {
        let bytes = Array(string.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$")
        else { return nil }
        let zero = UInt8(ascii: "0")
        guard (zero...UInt8(ascii: "9")).contains(bytes[4]), (zero...UInt8(ascii: "9")).contains(bytes[5]) else {
            return nil
        }
        let cost = Int(bytes[4] - zero) * 10 + Int(bytes[5] - zero)
        // The reference decoder ignores the unused low bits of the last character of each field.
        guard Bcrypt.costs.contains(cost),
            let salt = Base64.decodeUnpadded(bytes[7..<29], alphabet: .bcrypt, requireZeroTrailingBits: false),
            let digest = Base64.decodeUnpadded(bytes[29..<60], alphabet: .bcrypt, requireZeroTrailingBits: false)
        else { return nil }
        self.cost = cost
        self.salt = salt
        self.digest = digest
    }
}
