import BmobWire
import Testing

/// ``Base64`` on RFC 4648 §10's vectors and on what clients get wrong.
@Suite struct Base64Tests {
    /// RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: vectors) func encodesRFCVectors(plain: String, encoded: String) {
        #expect(Base64.encodeString(Array(plain.utf8)) == encoded)
        #expect(Base64.encode(Array(plain.utf8)) == Array(encoded.utf8))
    }

    @Test(arguments: vectors) func decodesRFCVectors(plain: String, encoded: String) {
        #expect(Base64.decode(Array(encoded.utf8)) == Array(plain.utf8))
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

    @Test func urlSafeAlphabetIsNotBase64Here() {
        // The native protocol uses the standard alphabet; `-` and `_` are errors, not `+` and `/`.
        #expect(Base64.decode(Array("-_-_".utf8)) == nil)
    }
}
