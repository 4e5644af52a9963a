import BmobCrypto

/// The native `/8/` protocol's envelope: JSON, AES-128-CBC with key = IV, standard base64.
///
/// Keys are derived from text: its UTF-8 bytes, cut to 16 or zero-padded to 16. Which text keys which body:
/// - `/8/secret` requests: the last 16 bytes of the `User-Agent`; its answer: the last 16 bytes of the
///   `Response-Id` header the server sends with it;
/// - the `Accept-Id` header (base64 of the encrypted Application ID): `User-Agent` bytes 1 to 16;
/// - every other body, both ways: the app's 16-character secret key.
package enum NativeEnvelope {
    /// A 16-byte key from `bytes`: the first 16, zero-padded when shorter.
    package static func key(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var key = Array(bytes.prefix(AES128CBC.blockSize))
        key += [UInt8](repeating: 0, count: AES128CBC.blockSize - key.count)
        return key
    }

    /// A 16-byte key from text, as ``key(_:)-(some Collection<UInt8>)``.
    package static func key(_ text: String) -> [UInt8] {
        key(text.utf8)
    }

    /// The key of a `/8/secret` request (from the `User-Agent`) or of its answer (from `Response-Id`): the
    /// text's last 16 bytes.
    package static func tailKey(_ text: String) -> [UInt8] {
        key(text.utf8.suffix(AES128CBC.blockSize))
    }

    /// The key of the `Accept-Id` header: `User-Agent` bytes 1 to 16.
    package static func acceptIdKey(userAgent: String) -> [UInt8] {
        key(userAgent.utf8.dropFirst().prefix(AES128CBC.blockSize))
    }

    /// Encrypts `plaintext` and returns its base64 text.
    package static func seal(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8] {
        Base64.encode(AES128CBC.encrypt(plaintext, key: key, iv: key))
    }

    /// Encrypts a JSON value and returns its base64 text.
    package static func seal(_ value: JSONValue, key: [UInt8]) -> [UInt8] {
        var plaintext: [UInt8] = []
        value.appendJSON(to: &plaintext)
        return seal(plaintext, key: key)
    }

    /// Decodes and decrypts a base64 body.
    package static func open(_ body: some Collection<UInt8>, key: [UInt8]) throws(NativeEnvelopeError) -> [UInt8] {
        guard let ciphertext = Base64.decode(body) else { throw .notBase64 }
        guard let plaintext = AES128CBC.decrypt(ciphertext, key: key, iv: key) else { throw .undecryptable }
        return plaintext
    }

    /// Decodes, decrypts and parses a body that must hold a JSON object.
    package static func openJSON(_ body: some Collection<UInt8>, key: [UInt8]) throws(NativeEnvelopeError) -> [String: JSONValue] {
        let plaintext = try open(body, key: key)
        let value: JSONValue
        do {
            value = try JSONParser.parse(plaintext)
        } catch {
            throw .notJSON(error.message)
        }
        guard case .object(let members) = value else { throw .notJSON("expected a JSON object") }
        return members
    }

    /// A response body's plaintext: `{"result":{"code":…,"message":…},"data":…}`.
    package static func response(code: Int, message: String, data: JSONValue) -> JSONValue {
        .object(["result": .object(["code": .int(Int64(code)), "message": .string(message)]), "data": data])
    }

    /// A success body's plaintext, `{"result":{"code":200,"message":"ok"},"data":<data>}`, around JSON text
    /// already encoded (query results are spliced, not parsed again).
    package static func successPlaintext(data: some Collection<UInt8>) -> [UInt8] {
        var plaintext = Array(#"{"result":{"code":200,"message":"ok"},"data":"#.utf8)
        plaintext.reserveCapacity(plaintext.count + data.count + 1)
        plaintext.append(contentsOf: data)
        plaintext.append(UInt8(ascii: "}"))
        return plaintext
    }
}
