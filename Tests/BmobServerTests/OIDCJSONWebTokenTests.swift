import BmobServer
import BmobWire
import Testing

/// The pieces under the OIDC validator: base64url, compact JWS parsing and JSON Web Key Sets.
@Suite struct OIDCJSONWebTokenTests {
    @Test("base64url decodes RFC 4648 vectors without padding and refuses anything non-canonical")
    func base64URL() {
        let vectors: [(String, String)] = [
            ("", ""), ("Zg", "f"), ("Zm8", "fo"), ("Zm9v", "foo"), ("Zm9vYg", "foob"), ("Zm9vYmE", "fooba"),
            ("Zm9vYmFy", "foobar"),
        ]
        for (encoded, decoded) in vectors {
            #expect(JSONWebToken.decodeBase64URL(encoded.utf8) == Array(decoded.utf8), "\(encoded)")
        }
        // The two characters that differ from standard base64.
        #expect(JSONWebToken.decodeBase64URL("-_8".utf8) == [0xFB, 0xFF])
        #expect(JSONWebToken.decodeBase64URL("____".utf8) == [0xFF, 0xFF, 0xFF])
        for bad in ["Z", "Zg==", "Zg=", "+/8", "Zh", "Zm9=", "Zm 9v", "Zm9vY", "é"] {
            #expect(JSONWebToken.decodeBase64URL(bad.utf8) == nil, "\(bad)")
        }
    }

    @Test("a compact JWS splits into header, claims, the signed bytes and the signature")
    func parse() throws {
        let token = try JSONWebToken(compact: OIDCFixtures.valid)
        #expect(token.algorithm == "RS256")
        #expect(token.keyID == "k1")
        #expect(token.header["typ"] == "JWT")
        #expect(token.claims["sub"] == "user-42")
        #expect(token.claims["aud"] == "client-123")
        #expect(token.claims["exp"] == .int(OIDCFixtures.now / 1000 + 3600))
        #expect(token.signature.count == 256)
        let signed = OIDCFixtures.valid.split(separator: ".").prefix(2).joined(separator: ".")
        #expect(token.signingInput == Array(signed.utf8))

        let unsigned = try JSONWebToken(compact: OIDCFixtures.algNone)
        #expect(unsigned.algorithm == "none")
        #expect(unsigned.signature.isEmpty)
        #expect(try JSONWebToken(compact: OIDCFixtures.noKid).keyID == nil)
        #expect(throws: JSONWebTokenError("the header lists critical extensions (crit)")) {
            try JSONWebToken(compact: OIDCFixtures.crit)
        }
    }

    @Test("a key set keeps its RSA signing keys and skips the rest")
    func keySet() throws {
        let set = try JSONWebKeySet(json: try JSONParser.parse(OIDCFixtures.jwksMixed))
        #expect(set.keys.map(\.keyID) == ["k1"])
        #expect(set.keys[0].algorithm == nil)
        #expect(set.key(id: "k1") == set.keys[0])
        #expect(set.key(id: nil) == set.keys[0])
        #expect(set.key(id: "ec1") == nil)
        #expect(set.key(id: "enc1") == nil)

        let two = try JSONWebKeySet(bytes: Array(OIDCFixtures.jwksK1K2.utf8))
        #expect(two.keys.map(\.keyID) == ["k1", "k2"])
        #expect(two.key(id: "k2")?.algorithm == "RS256")
        #expect(two.key(id: nil) == nil)
        #expect(two.key(id: "k3") == nil)

        #expect(throws: JSONWebTokenError("the key set is not JSON")) { try JSONWebKeySet(bytes: Array("{".utf8)) }
        #expect(throws: JSONWebTokenError("the key set is not an object with a keys array")) {
            try JSONWebKeySet(json: ["keys": "none"])
        }
        #expect(throws: JSONWebTokenError("the key set has no usable RS256 key: key ec is not an RSA key")) {
            try JSONWebKeySet(json: ["keys": [["kty": "EC", "kid": "ec"], ["kty": "oct", "kid": "h"]]])
        }
    }

    @Test("a JWK is refused for the wrong use, algorithm, operations or numbers")
    func keyRefusals() throws {
        let set = try JSONParser.parse(OIDCFixtures.jwksK1)
        guard case .object(var key)? = set["keys"]?.arrayValue?.first else {
            Issue.record("fixture has no key")
            return
        }
        #expect(try JSONWebKey(json: .object(key)).keyID == "k1")
        let cases: [(String, JSONValue?, String)] = [
            ("kty", nil, "key k1 is not an RSA key"),
            ("use", "enc", "key k1 is not for signatures (use)"),
            ("alg", "RS384", "key k1 is not for RS256 (alg)"),
            ("key_ops", ["encrypt"], "key k1 is not for verifying (key_ops)"),
            ("n", nil, "key k1 needs n and e in base64url"),
            ("e", "AQAB=", "key k1 needs n and e in base64url"),
            ("e", "AQ", "key k1 is not a sound RSA key of 2048 to 8192 bits"),
            ("n", "AQAB", "key k1 is not a sound RSA key of 2048 to 8192 bits"),
        ]
        for (member, value, message) in cases {
            var changed = key
            changed[member] = value
            #expect(throws: JSONWebTokenError(message), "\(member)") { try JSONWebKey(json: .object(changed)) }
        }
        key["key_ops"] = ["verify"]
        #expect(try JSONWebKey(json: .object(key)).keyID == "k1")
        key["kid"] = nil
        #expect(try JSONWebKey(json: .object(key)).keyID == nil)
        #expect(throws: JSONWebTokenError("a key is not a JSON object")) { try JSONWebKey(json: "key") }
    }
}
