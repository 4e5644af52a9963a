import BmobCrypto
import Testing

/// MD5 against the RFC 1321 appendix A.5 test suite.
@Suite struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "d174ab98d277d9f5a5611c2c9f419d9f"
        ),
        (
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "57edf4a22be3c955ac49da2e2107b67a"
        ),
    ])
    func rfcVectors(message: String, digest: String) {
        #expect(MD5.hex(Array(message.utf8)) == digest)
        #expect(MD5.hash(Array(message.utf8)).count == MD5.digestCount)
    }

    /// Slices and non-contiguous collections hash like arrays.
    @Test func anyCollectionOfBytes() {
        let bytes = Array("xxabcxx".utf8)
        #expect(MD5.hex(bytes[2..<5]) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex("abc".utf8) == "900150983cd24fb0d6963f7d28e17f72")
    }
}
