package import BmobWire

/// The RS256 keys of a JSON Web Key Set (RFC 7517 §5): `{"keys": [{"kty": "RSA", "kid": …, "n": …, "e": …}]}`,
/// the document an OpenID Connect provider publishes at its `jwks_uri`.
///
/// As RFC 7517 §5 advises, keys this reader cannot use (other key types such as EC, encryption keys, other
/// algorithms, malformed or weak RSA keys) are skipped rather than failing the set; a set left with no key at
/// all is an error.
package struct JSONWebKeySet: Sendable, Equatable {
    /// The usable keys, in the set's order.
    package let keys: [JSONWebKey]

    /// The usable keys of a parsed set.
    ///
    /// - Parameter json: The set's JSON.
    /// - Throws: ``JSONWebTokenError`` when `json` is not an object with a `keys` array, or none of its keys is
    ///   an RSA key that can verify RS256 signatures.
    package init(json: JSONValue) throws(JSONWebTokenError) {
        guard case .array(let members)? = json["keys"] else {
            throw JSONWebTokenError("the key set is not an object with a keys array")
        }
        var keys: [JSONWebKey] = []
        var firstProblem: JSONWebTokenError?
        for member in members {
            do throws(JSONWebTokenError) {
                keys.append(try JSONWebKey(json: member))
            } catch {
                firstProblem = firstProblem ?? error
            }
        }
        guard !keys.isEmpty else {
            let detail = firstProblem.map { ": \($0.message)" } ?? ""
            throw JSONWebTokenError("the key set has no usable RS256 key\(detail)")
        }
        self.keys = keys
    }

    /// Parses the set from its JSON text, as fetched from a provider.
    ///
    /// - Parameter bytes: The UTF-8 JSON.
    /// - Throws: ``JSONWebTokenError`` when the bytes are not JSON or the set is unusable.
    package init(bytes: some Collection<UInt8>) throws(JSONWebTokenError) {
        guard let json = try? JSONParser.parse(bytes) else { throw JSONWebTokenError("the key set is not JSON") }
        try self.init(json: json)
    }

    /// The key a token's header names: the key whose `kid` is `keyID`, or, for a token without `kid`, the set's
    /// only key. `nil` when there is no such key, or no `kid` and several keys to choose from.
    ///
    /// - Parameter keyID: The token's `kid`, if any.
    /// - Returns: The key to verify the token with.
    package func key(id keyID: String?) -> JSONWebKey? {
        guard let keyID else { return keys.count == 1 ? keys[0] : nil }
        return keys.first { $0.keyID == keyID }
    }
}
