import BmobCrypto
package import BmobWire

/// Signs and checks the URLs of files served only with a signature (``FileSettings/signedDownloads``):
/// `<file URL>?expires=<Unix seconds>&signature=<hex>`, the signature an HMAC-SHA256 of the key and the expiry
/// keyed with the server's shared secret for downloads. Stateless, so any node checks what any node signed and
/// nothing is stored; a URL names one file until one moment, and changing either breaks the signature.
package struct DownloadSigner: Sendable {
    /// What a download's query says of its signature.
    package enum Verdict: Sendable, Equatable {
        /// Signed for this key, and not expired.
        case valid
        /// No `expires` or no `signature`.
        case missing
        /// Signed for this key, but the moment has passed.
        case expired
        /// A signature that is not the server's for this key and expiry.
        case invalid
    }

    private let secret: [UInt8]

    /// A signer keyed with `secret` (the server's shared secret for downloads).
    package init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The query that signs `key` until `expiresAt` (Unix seconds): `expires=…&signature=…`.
    package func query(for key: FileKey, expiresAt: Int64) -> String {
        "expires=\(expiresAt)&signature=\(signature(key, expiresAt: expiresAt))"
    }

    /// Checks a download's `expires` and `signature` against `key` at `now` (Unix seconds); the signature is
    /// compared in constant time, and checked before the time so that a forged URL never learns whether it expired.
    package func check(key: FileKey, expires: String?, signature: String?, now: Int64) -> Verdict {
        guard let expires, let signature else { return .missing }
        guard expires.utf8.count <= 20, let expiresAt = Int64(expires), signature.utf8.count == 64,
            ConstantTime.equals(Array(signature.utf8), Array(self.signature(key, expiresAt: expiresAt).utf8))
        else { return .invalid }
        return now < expiresAt ? .valid : .expired
    }

    private func signature(_ key: FileKey, expiresAt: Int64) -> String {
        let message = "bmob-download\n\(key.rawValue)\n\(expiresAt)"
        return Hex.encode(HMACSHA256.authenticationCode(key: secret, message: Array(message.utf8)))
    }
}
