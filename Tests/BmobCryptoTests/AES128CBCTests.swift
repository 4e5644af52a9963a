import BmobCrypto
import Testing

/// AES-128-CBC against NIST SP 800-38A appendix F.2 and PKCS#7 padding rules.
@Suite struct AES128CBCTests {
    /// NIST SP 800-38A F.2.1 / F.2.2 (CBC-AES128): key, IV, four plaintext blocks and their ciphertext.
    static let key = bytes("2b7e151628aed2a6abf7158809cf4f3c")
    static let iv = bytes("000102030405060708090a0b0c0d0e0f")
    static let plaintext = bytes(
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")
    static let ciphertext = bytes(
        "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7")

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// F.2.1: the vector has no padding, so our output is the vector's four blocks plus one padding block.
    @Test func encryptMatchesNISTVector() {
        let output = AES128CBC.encrypt(Self.plaintext, key: Self.key, iv: Self.iv)
        #expect(output.count == Self.ciphertext.count + 16)
        #expect(Array(output.prefix(Self.ciphertext.count)) == Self.ciphertext)
    }

    /// Each prefix of the vector's blocks encrypts to the same prefix of its ciphertext (CBC chains forward).
    @Test(arguments: 1...4) func encryptedPrefixesMatch(blocks: Int) {
        let output = AES128CBC.encrypt(Array(Self.plaintext.prefix(blocks * 16)), key: Self.key, iv: Self.iv)
        #expect(Array(output.prefix(blocks * 16)) == Array(Self.ciphertext.prefix(blocks * 16)))
    }

    /// F.2.2: decrypting our padded output gives the vector's plaintext back.
    @Test func decryptRoundTripsTheNISTVector() {
        let sealed = AES128CBC.encrypt(Self.plaintext, key: Self.key, iv: Self.iv)
        #expect(AES128CBC.decrypt(sealed, key: Self.key, iv: Self.iv) == Self.plaintext)
    }

    /// F.2.2 without padding: the vector's last plaintext block ends in 0x10, which PKCS#7 would read as a
    /// whole block of padding only if all sixteen bytes were 0x10, so the bare vector is rejected; its first
    /// block alone decrypts to a block ending in 0x2A, no padding at all.
    @Test func bareVectorHasNoValidPadding() {
        #expect(AES128CBC.decrypt(Self.ciphertext, key: Self.key, iv: Self.iv) == nil)
        #expect(AES128CBC.decrypt(Array(Self.ciphertext.prefix(16)), key: Self.key, iv: Self.iv) == nil)
    }

    @Test(arguments: 0...33) func paddingLengths(length: Int) throws {
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let sealed = AES128CBC.encrypt(plaintext, key: Self.key, iv: Self.iv)
        // PKCS#7 always adds 1…16 bytes: the next multiple of 16 strictly above the length.
        #expect(sealed.count == (length / 16 + 1) * 16)
        #expect(AES128CBC.decrypt(sealed, key: Self.key, iv: Self.iv) == plaintext)
    }

    @Test func keyAndIVBothMatter() {
        let plaintext = Array("{\"appKey\":\"x\"}".utf8)
        let sealed = AES128CBC.encrypt(plaintext, key: Self.key, iv: Self.iv)
        #expect(AES128CBC.encrypt(plaintext, key: Self.key, iv: Self.key) != sealed)
        var otherKey = Self.key
        otherKey[0] ^= 1
        #expect(AES128CBC.encrypt(plaintext, key: otherKey, iv: Self.iv) != sealed)
    }

    /// A wrong key garbles the last block, and its padding with it; with these fixed inputs it is rejected.
    @Test func wrongKeyIsRejected() {
        let sealed = AES128CBC.encrypt(Array("hello, bmob".utf8), key: Self.key, iv: Self.iv)
        let wrong = Array("0123456789abcdef".utf8)
        #expect(AES128CBC.decrypt(sealed, key: wrong, iv: wrong) == nil)
    }

    /// Over many wrong keys, almost all fail; none returns the original plaintext.
    @Test func wrongKeysNeverRecoverThePlaintext() {
        let plaintext = Array("the same secret".utf8)
        let sealed = AES128CBC.encrypt(plaintext, key: Self.key, iv: Self.iv)
        var accepted = 0
        for seed in 0..<256 {
            let key = (0..<16).map { UInt8(truncatingIfNeeded: seed &* 31 &+ $0 &* 17 &+ 1) }
            if let opened = AES128CBC.decrypt(sealed, key: key, iv: key) {
                accepted += 1
                #expect(opened != plaintext)
            }
        }
        // A random last byte is valid padding about once in 256 tries (0x01), rarely more.
        #expect(accepted < 16)
    }

    @Test(arguments: [0, 1, 15, 17, 31]) func notWholeBlocksIsRejected(count: Int) {
        let garbage = [UInt8](repeating: 0xA5, count: count)
        #expect(AES128CBC.decrypt(garbage, key: Self.key, iv: Self.iv) == nil)
    }
}
