import BmobCrypto

/// Generating and checking app keys.
package enum AppKeys {
    /// 32 lowercase hex characters (128 random bits), the shape of Bmob's Application ID and API keys.
    package static func makeKey() -> String {
        SecureRandom.hex(byteCount: 16)
    }

    /// 16 lowercase hex characters: the native protocol uses the secret key's 16 bytes as an AES-128 key.
    package static func makeSecretKey() -> String {
        SecureRandom.hex(byteCount: 8)
    }

    /// A key a user chose: 1–128 visible ASCII characters.
    package static func validateKey(_ key: String, name: String) throws(ConfigurationError) {
        guard !key.isEmpty, key.utf8.count <= 128, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError("\(name): expected 1 to 128 visible ASCII characters")
        }
    }

    /// A secret key: exactly 16 visible ASCII characters (it becomes an AES-128 key).
    package static func validateSecretKey(_ key: String) throws(ConfigurationError) {
        guard key.utf8.count == 16, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError("secret-key: expected exactly 16 visible ASCII characters")
        }
    }

    /// Compares two secrets in time that depends only on their lengths, not on where they differ.
    package static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        // Over the strings' own bytes: copying both into arrays cost two allocations per request.
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard left.count == right.count else { return false }
                var difference: UInt8 = 0
                for index in left.indices {
                    difference |= left[index] ^ right[index]
                }
                return difference == 0
            }
        }
    }
}
