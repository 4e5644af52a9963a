import BmobCrypto
import BmobWire

/// Issues and checks the local provider's upload credentials, statelessly: every node holding the server's
/// shared secret can check what any node issued.
///
/// - `sessionToken` = base64url of `{"a": app id, "k": key, "e": expiry}`, `.`, and the hex HMAC-SHA256 of that
///   text keyed with the secret: it names the grant and proves the server made it.
/// - `accessKeyId` = `BMOB` and 16 random hex digits; `secretAccessKey` = hex HMAC of the access key id and the
///   token: only the server can derive it, and the client gets it once, with the token.
package struct UploadCredentialIssuer: Sendable {
    private let secret: [UInt8]

    /// An issuer keyed with `secret` (the server's shared secret for uploads).
    package init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The upload token that names `grant`: what `/8/cdn` resumes from and `/8/savecdnupload` registers with.
    package func token(for grant: UploadGrant) -> String {
        let payload: JSONValue = [
            "a": .string(grant.applicationId), "k": .string(grant.key.rawValue), "e": .int(grant.expiresAt),
        ]
        let encoded = Base64.encodeString(payload.jsonBytes, alphabet: .url, padding: false)
        return encoded + "." + mac("token", encoded)
    }

    /// Credentials for `grant` on the local provider's endpoint: their session token is ``token(for:)``.
    package func issue(_ grant: UploadGrant) -> UploadCredentials {
        let token = token(for: grant)
        let accessKeyId = "BMOB" + SecureRandom.hex(byteCount: 8).uppercased()
        return UploadCredentials(
            accessKeyId: accessKeyId, secretAccessKey: secretAccessKey(accessKeyId: accessKeyId, sessionToken: token),
            sessionToken: token, expiresAt: grant.expiresAt)
    }

    /// The grant a session token names, when the server made it (expired or not: the caller checks the time).
    package func grant(sessionToken token: String) -> UploadGrant? {
        guard token.utf8.count <= 2048, let dot = token.firstIndex(of: ".") else { return nil }
        let encoded = String(token[..<dot])
        let signature = token[token.index(after: dot)...]
        guard ConstantTime.equals(Array(signature.utf8), Array(mac("token", encoded).utf8)),
            let bytes = Base64.decodeUnpadded(Array(encoded.utf8), alphabet: .url),
            case .object(let payload)? = try? JSONParser.parse(bytes),
            case .string(let applicationId)? = payload["a"], case .string(let keyText)? = payload["k"],
            let key = FileKey(keyText), case .int(let expiresAt)? = payload["e"]
        else { return nil }
        return UploadGrant(applicationId: applicationId, key: key, expiresAt: expiresAt)
    }

    /// The secret access key that goes with an access key id and a session token.
    package func secretAccessKey(accessKeyId: String, sessionToken: String) -> String {
        mac("secret", accessKeyId + "\n" + sessionToken)
    }

    private func mac(_ purpose: String, _ text: String) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: secret, message: Array(("bmob-upload-" + purpose + "\n" + text).utf8)))
    }
}
