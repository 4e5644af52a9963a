import BmobCrypto
import Testing

/// ``Base64``, the one codec of SDK and server, on RFC 4648 §10's vectors in every form, and on what clients
/// get wrong.
@Suite struct Base64Tests {
    /// RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    // MARK: Standard, padded, lenient (native envelope, WebSocket keys, mail)

    @Test(arguments: vectors) func encodesRFCVectors(plain: String, encoded: String) {
        #expect(Base64.encodeString(Array(plain.utf8)) == encoded)
        #expect(Base64.encode(Array(plain.utf8)) == Array(encoded.utf8))
        // Any collection of bytes, contiguous or not.
        #expect(Base64.encodeString(plain.utf8) == encoded)
        #expect(Base64.encodeString(Array(plain.utf8).lazy.map { $0 }) == encoded)
    }

    @Test(arguments: vectors) func decodesRFCVectors(plain: String, encoded: String) {
        #expect(Base64.decode(Array(encoded.utf8)) == Array(plain.utf8))
        #expect(Base64.decode(encoded.utf8) == Array(plain.utf8))
        #expect(Base64.decode(Array(encoded.utf8).lazy.map { $0 }) == Array(plain.utf8))
    }

    @Test(arguments: vectors) func paddingMayBeMissing(plain: String, encoded: String) {
        let unpadded = encoded.filter { $0 != "=" }
        #expect(Base64.decode(Array(unpadded.utf8)) == Array(plain.utf8))
    }

    @Test func everyByteValueAndBothHighSymbols() {
        let bytes = (0...255).map { UInt8($0) }
        let text = Base64.encodeString(bytes)
        #expect(text.contains("+") && text.contains("/"))
        #expect(Base64.decode(Array(text.utf8)) == bytes)
        // 0xFB 0xFF encodes to the alphabet's last two symbols.
        #expect(Base64.encodeString([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    @Test func whitespaceIsSkipped() {
        #expect(Base64.decode(Array("Zm9v\r\nYmFy".utf8)) == Array("foobar".utf8))
        #expect(Base64.decode(Array(" Zm 9v\tYg ==\n".utf8)) == Array("foob".utf8))
    }

    @Test(arguments: [
        "Zm9v!", "Zm9v-_", "Zg===", "Z", "Zm9vY", "Zg==Zg==", "Zm=9", "=Zm9", "Zm8=a", "Zm9v\u{0}", "\u{00E9}",
    ])
    func invalidInputIsRejected(text: String) {
        #expect(Base64.decode(Array(text.utf8)) == nil)
    }

    @Test func urlSafeAlphabetIsNotStandardBase64() {
        // The native protocol uses the standard alphabet; `-` and `_` are errors, not `+` and `/`.
        #expect(Base64.decode(Array("-_-_".utf8)) == nil)
    }

    // MARK: Unpadded, strict (JSON Web Tokens, stored password hashes)

    @Test(arguments: vectors) func unpaddedForms(plain: String, encoded: String) {
        let unpadded = encoded.filter { $0 != "=" }
        #expect(Base64.encodeString(Array(plain.utf8), padding: false) == unpadded)
        #expect(Base64.encodeString(Array(plain.utf8), alphabet: .url, padding: false) == unpadded)
        #expect(Base64.decodeUnpadded(Array(unpadded.utf8), alphabet: .standard) == Array(plain.utf8))
        #expect(Base64.decodeUnpadded(unpadded.utf8, alphabet: .url) == Array(plain.utf8))
    }

    @Test func urlAlphabet() {
        // The two symbols that differ from standard base64.
        #expect(Base64.encodeString([0xFB, 0xFF, 0xBF], alphabet: .url) == "-_-_")
        #expect(Base64.encodeString([0xFB, 0xFF], alphabet: .url) == "-_8=")
        #expect(Base64.decodeUnpadded("-_8".utf8, alphabet: .url) == [0xFB, 0xFF])
        #expect(Base64.decodeUnpadded("____".utf8, alphabet: .url) == [0xFF, 0xFF, 0xFF])
        #expect(Base64.decode("-_8=".utf8, alphabet: .url) == [0xFB, 0xFF])
        #expect(Base64.decodeUnpadded("+/8".utf8, alphabet: .url) == nil)
    }

    @Test(arguments: ["Zg==", "Zm8=", " Zm9v", "Zm9v\n", "Z", "Zm9vY", "Zh", "Zm9", "!!!!", "Zm+v", "\u{00E9}"])
    func strictDecodingRefusesAnythingNonCanonical(text: String) {
        // Padding, whitespace, a lone last character, non-zero leftover bits (`Zh`, `Zm9`), foreign symbols.
        #expect(Base64.decodeUnpadded(text.utf8, alphabet: .url) == nil)
    }

    @Test func leftoverBitsMayBeIgnoredOnRequest() {
        // `Zh` carries `f` and the leftover bits 0001, which bcrypt's reference decoder ignores.
        #expect(Base64.decodeUnpadded("Zh".utf8, alphabet: .standard) == nil)
        #expect(Base64.decodeUnpadded("Zh".utf8, alphabet: .standard, requireZeroTrailingBits: false) == [0x66])
    }

    @Test func bcryptAlphabet() {
        // Values 0, 1, 2, 3 and 63 are `.`, `/`, `A`, `B` and `9`: 0x00 0x10 0x83 → `./AB`, and 0xFF 0xFF 0xFF → `9999`.
        #expect(Base64.encodeString([0x00, 0x10, 0x83], alphabet: .bcrypt, padding: false) == "./AB")
        #expect(Base64.encodeString([0xFF, 0xFF, 0xFF], alphabet: .bcrypt, padding: false) == "9999")
        #expect(Base64.decodeUnpadded("./AB".utf8, alphabet: .bcrypt) == [0x00, 0x10, 0x83])
        // A 16-byte salt is 22 characters, a 23-byte digest 31.
        let salt = (0..<16).map { UInt8($0 * 13 & 0xFF) }
        let text = Base64.encodeString(salt, alphabet: .bcrypt, padding: false)
        #expect(text.utf8.count == 22)
        #expect(Base64.decodeUnpadded(text.utf8, alphabet: .bcrypt) == salt)
        let digest = [UInt8](repeating: 7, count: 23)
        #expect(Base64.encodeString(digest, alphabet: .bcrypt, padding: false).utf8.count == 31)
    }

    @Test func roundTripsEveryLengthInEveryForm() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(($0 * 37 + count) & 0xFF) }
            for alphabet in [Base64.Alphabet.standard, .url, .bcrypt] {
                let padded = Base64.encode(bytes, alphabet: alphabet)
                #expect(padded.count % 4 == 0)
                #expect(Base64.decode(padded, alphabet: alphabet) == bytes)
                let unpadded = Base64.encode(bytes, alphabet: alphabet, padding: false)
                #expect(unpadded.count == (count * 4 + 2) / 3)
                #expect(Base64.decodeUnpadded(unpadded, alphabet: alphabet) == bytes)
                #expect(Base64.decode(unpadded, alphabet: alphabet) == bytes)
            }
        }
    }
}
