/// bcrypt (Provos and Mazières, 1999), for verifying password hashes imported from Parse and other systems.
///
/// New hashes are scrypt (see ``PasswordHash``); this type exists so that `$2a$`, `$2b$` and `$2y$` strings keep
/// working. The three prefixes are computed alike, as current OpenBSD, PHP and Python implementations do: the key
/// is the password's bytes and a terminating NUL, cut to 72 bytes.
package enum Bcrypt {
    /// Salt size in bytes.
    package static let saltCount = 16
    /// Size of the stored digest: the first 23 of the 24 bytes of ciphertext.
    package static let digestCount = 23
    /// Accepted costs; the work is 2^cost key-schedule rounds.
    package static let costs = 4...31
    /// The longest key: password bytes beyond it are ignored.
    package static let maximumKeyCount = 72

    /// The bcrypt digest of `password` with a 16-byte `salt` and a cost in ``costs``.
    ///
    /// The password is read as a C string would be: it ends at its first NUL byte, if any.
    package static func digest(password: some Collection<UInt8>, salt: [UInt8], cost: Int) -> [UInt8] {
        precondition(salt.count == saltCount && costs.contains(cost), "invalid bcrypt salt or cost")
        var key = Array(password.prefix { $0 != 0 })
        key.append(0)
        if key.count > maximumKeyCount {
            key.removeSubrange(maximumKeyCount...)
        }
        // The key stream cycles over the key; the 18 words it XORs into the P-array are the same every pass.
        var keyWords = [UInt32](repeating: 0, count: BlowfishTables.pCount)
        var position = 0
        for index in keyWords.indices {
            for _ in 0..<4 {
                keyWords[index] = keyWords[index] << 8 | UInt32(key[position])
                position = (position + 1) % key.count
            }
        }
        var saltWords = [UInt32](repeating: 0, count: saltCount / 4)
        for index in saltWords.indices {
            for byte in 0..<4 {
                saltWords[index] = saltWords[index] << 8 | UInt32(salt[4 * index + byte])
            }
        }
        // "OrpheanBeholderScryDoubt", as six big-endian words.
        var text = [UInt32](repeating: 0, count: 6)
        for (index, byte) in "OrpheanBeholderScryDoubt".utf8.enumerated() {
            text[index / 4] = text[index / 4] << 8 | UInt32(byte)
        }
        // As a key, the salt cycles too: its four words repeat over the P-array.
        let saltKeyWords = (0..<BlowfishTables.pCount).map { saltWords[$0 % saltWords.count] }
        var cipher = EksBlowfish()
        keyWords.withUnsafeBufferPointer { keyWords in
            saltWords.withUnsafeBufferPointer { saltWords in
                saltKeyWords.withUnsafeBufferPointer { saltKeyWords in
                    let key = keyWords.baseAddress!
                    cipher.expand(key: key, salt: saltWords.baseAddress!)
                    for _ in 0..<(UInt64(1) << cost) {
                        cipher.expand(key: key, salt: nil)
                        cipher.expand(key: saltKeyWords.baseAddress!, salt: nil)
                    }
                }
            }
        }
        for _ in 0..<64 {
            for block in stride(from: 0, to: 6, by: 2) {
                var (left, right) = (text[block], text[block + 1])
                cipher.encrypt(&left, &right)
                (text[block], text[block + 1]) = (left, right)
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(24)
        for word in text {
            output += [UInt8(word >> 24), UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF)]
        }
        return Array(output.prefix(digestCount))
    }

    /// The full modular-crypt string, `$2b$NN$` followed by 22 characters of salt and 31 of digest in bcrypt's
    /// base64 (`./A-Za-z0-9`). `minor` is `a`, `b` or `y`; all three give the same digest.
    package static func hash(password: some Collection<UInt8>, salt: [UInt8], cost: Int, minor: Character = "b")
        -> String
    {
        precondition(minor == "a" || minor == "b" || minor == "y", "unknown bcrypt minor version")
        let digits = cost < 10 ? "0\(cost)" : "\(cost)"
        let encodedSalt = Base64.encodeString(salt, alphabet: .bcrypt, padding: false)
        let encodedDigest = Base64.encodeString(
            digest(password: password, salt: salt, cost: cost), alphabet: .bcrypt, padding: false)
        return "$2\(minor)$\(digits)$\(encodedSalt)\(encodedDigest)"
    }

    /// Whether `password` matches a stored bcrypt string; `false` for a string that is not one.
    ///
    /// The digests are compared with ``ConstantTime/equals(_:_:)``.
    package static func verify(_ password: some Collection<UInt8>, against stored: String) -> Bool {
        guard let parsed = StoredBcryptHash(stored) else { return false }
        let derived = digest(password: password, salt: parsed.salt, cost: parsed.cost)
        return ConstantTime.equals(derived, parsed.digest)
    }
}
