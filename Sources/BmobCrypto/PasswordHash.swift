/// The stored form of user passwords: scrypt strings for new hashes, with bcrypt strings imported from Parse
/// still accepted.
///
/// A new hash reads `$scrypt$ln=15,r=8,p=1$<salt>$<key>`, the salt and key in standard base64 without padding.
/// After a successful ``verify(_:against:)``, callers check ``needsRehash(_:parameters:)`` and store a fresh
/// ``make(_:parameters:)`` when it says so, which moves bcrypt users and older parameters forward at login.
///
/// Passwords are hashed as their UTF-8 bytes, without Unicode normalization (as Parse did).
///
/// ## Topics
/// - ``make(_:parameters:)``
/// - ``verify(_:against:)``
/// - ``needsRehash(_:parameters:)``
/// - ``defaultParameters``
package struct PasswordHash: Sendable {
    /// Parameters for new hashes: scrypt N = 2^15, r = 8, p = 1, 16-byte salt, 32-byte key (≈ 32 MiB, tens of ms).
    package static let defaultParameters = ScryptParameters(logN: 15, r: 8, p: 1)
    /// Salt size of new hashes.
    package static let saltCount = 16
    /// Key size of new hashes.
    package static let keyCount = 32

    /// "$scrypt$ln=15,r=8,p=1$<salt base64 no padding>$<hash base64 no padding>"
    ///
    /// A fresh random salt each time, so two hashes of one password differ.
    ///
    /// - Parameters:
    ///   - password: The password; its UTF-8 bytes are hashed.
    ///   - parameters: Cost parameters; they must be ``ScryptParameters/isSupported``.
    /// - Returns: The string to store.
    package static func make(_ password: String, parameters: ScryptParameters = defaultParameters) -> String {
        precondition(parameters.isSupported, "unsupported scrypt parameters")
        let salt = SecureRandom.bytes(saltCount)
        guard
            let key = Scrypt.derive(
                password: Array(password.utf8), salt: salt, logN: parameters.logN, r: parameters.r,
                p: parameters.p, length: keyCount)
        else {
            // Supported parameters are valid, so only a failed allocation of their working memory gets here.
            fatalError("scrypt could not allocate its working memory")
        }
        return StoredScryptHash(parameters: parameters, salt: salt, key: key).encoded
    }

    /// Verifies against our scrypt strings and against bcrypt strings ($2a$, $2b$, $2y$, cost 4…31) imported from
    /// Parse; false for anything unparseable. Constant-time comparison of the derived key.
    ///
    /// - Parameters:
    ///   - password: The password offered at login.
    ///   - stored: The stored string.
    /// - Returns: Whether the password matches. A scrypt string needs ``ScryptParameters/isSupported`` parameters.
    package static func verify(_ password: String, against stored: String) -> Bool {
        if stored.hasPrefix(StoredScryptHash.prefix) {
            guard let parsed = StoredScryptHash(stored),
                let key = Scrypt.derive(
                    password: Array(password.utf8), salt: parsed.salt, logN: parsed.parameters.logN,
                    r: parsed.parameters.r, p: parsed.parameters.p, length: parsed.key.count)
            else { return false }
            return ConstantTime.equals(key, parsed.key)
        }
        return Bcrypt.verify(password.utf8, against: stored)
    }

    /// True when `stored` is bcrypt or scrypt with weaker parameters than `parameters` (the caller re-hashes after
    /// a successful login).
    ///
    /// Also true for a scrypt string whose salt or key is shorter than new hashes use, and for a string that is
    /// not a hash at all (which cannot have passed ``verify(_:against:)``).
    package static func needsRehash(_ stored: String, parameters: ScryptParameters = defaultParameters) -> Bool {
        guard let parsed = StoredScryptHash(stored) else { return true }
        return parsed.parameters.isWeaker(than: parameters) || parsed.salt.count < saltCount
            || parsed.key.count < keyCount
    }
}
