package import BmobCrypto
package import BmobWire

/// One RSA signing key of a JSON Web Key Set (RFC 7517 §4, RFC 7518 §6.3.1): `kty` `RSA`, its `n` and `e`,
/// and optionally `kid`, `alg` and `use`.
package struct JSONWebKey: Sendable, Equatable {
    /// The key's `kid`, which tokens name in their header.
    package let keyID: String?
    /// The key's `alg` when it states one; then it is `RS256`.
    package let algorithm: String?
    /// The RSA key itself.
    package let publicKey: RSAPublicKey

    /// A key from one member of a set's `keys` array.
    ///
    /// - Parameter json: The JWK object.
    /// - Throws: ``JSONWebTokenError`` when the key cannot verify RS256 signatures: not an object, a `kty` other
    ///   than `RSA`, a `use` other than `sig`, an `alg` other than `RS256`, `n` or `e` missing or not base64url,
    ///   or numbers ``RSAPublicKey`` refuses (such as a modulus under 2048 bits).
    package init(json: JSONValue) throws(JSONWebTokenError) {
        guard case .object(let members) = json else { throw JSONWebTokenError("a key is not a JSON object") }
        let keyID = members["kid"]?.stringValue
        let name = keyID.map { "key \($0)" } ?? "a key without kid"
        guard members["kty"]?.stringValue == "RSA" else { throw JSONWebTokenError("\(name) is not an RSA key") }
        if let use = members["use"], use.stringValue != "sig" {
            throw JSONWebTokenError("\(name) is not for signatures (use)")
        }
        if let algorithm = members["alg"], algorithm.stringValue != "RS256" {
            throw JSONWebTokenError("\(name) is not for RS256 (alg)")
        }
        if let operations = members["key_ops"], operations.arrayValue?.contains("verify") != true {
            throw JSONWebTokenError("\(name) is not for verifying (key_ops)")
        }
        guard let n = members["n"]?.stringValue.flatMap({ JSONWebToken.decodeBase64URL($0.utf8) }),
            let e = members["e"]?.stringValue.flatMap({ JSONWebToken.decodeBase64URL($0.utf8) })
        else { throw JSONWebTokenError("\(name) needs n and e in base64url") }
        guard let publicKey = RSAPublicKey(modulus: n, exponent: e) else {
            throw JSONWebTokenError(
                "\(name) is not a sound RSA key of \(RSAPublicKey.minimumBitCount) to \(RSAPublicKey.maximumBitCount) bits"
            )
        }
        self.keyID = keyID
        self.algorithm = members["alg"]?.stringValue
        self.publicKey = publicKey
    }
}
