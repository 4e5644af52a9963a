import BmobCrypto
import Testing

/// SHA-256 against the FIPS 180-2 appendix B examples.
@Suite struct SHA256Tests {
    @Test(arguments: [
        // B.1: one block.
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // The empty message.
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        // B.2: the 448-bit message, which needs a second block for its padding.
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func fipsVectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
        #expect(SHA256.hash(Array(message.utf8)) == Hex.bytes(digest))
    }

    /// B.3: one million repetitions of "a".
    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Collections without contiguous storage, and slices that do not start at zero, hash like arrays.
    @Test func anyCollectionOfBytes() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let expected = SHA256.hash(message)
        #expect(SHA256.hash(message.lazy.map { $0 }) == expected)
        #expect(SHA256.hash(("x" + String(decoding: message, as: UTF8.self)).utf8.dropFirst()) == expected)
        #expect(SHA256.hash(Array(message.dropFirst())) != expected)
        #expect(SHA256.hash([UInt8]()) == SHA256.hash(EmptyCollection<UInt8>()))
    }

    @Test func hexIsLowercaseAndSixtyFourDigits() {
        let hex = SHA256.hex(Array("bmob".utf8))
        #expect(hex.count == 64)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
    }
}
