import BmobCrypto
import Testing

/// HMAC-SHA256 against RFC 4231 §4.
@Suite struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let message: [UInt8]
        let code: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "4.2 test case 1", key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8),
            code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(
            name: "4.3 test case 2 (key shorter than the output)", key: Array("Jefe".utf8),
            message: Array("what do ya want for nothing?".utf8),
            code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(
            name: "4.4 test case 3", key: [UInt8](repeating: 0xAA, count: 20),
            message: [UInt8](repeating: 0xDD, count: 50),
            code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(
            name: "4.5 test case 4", key: Array(1...25), message: [UInt8](repeating: 0xCD, count: 50),
            code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(
            name: "4.7 test case 6 (key longer than a block)", key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ]

    @Test(arguments: vectors) func rfc4231(vector: Vector) {
        #expect(HMACSHA256.authenticationCode(key: vector.key, message: vector.message) == Hex.bytes(vector.code))
    }

    /// An empty key is a valid HMAC key (64 zero bytes after padding), not "no key".
    @Test func emptyKeyAndMessage() {
        let empty = HMACSHA256.authenticationCode(key: [UInt8](), message: [UInt8]())
        #expect(empty == Hex.bytes("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
        #expect(HMACSHA256.authenticationCode(key: [UInt8](repeating: 0, count: 64), message: [UInt8]()) == empty)
    }

    @Test func keyAndMessageBothMatter() {
        let code = HMACSHA256.authenticationCode(key: Array("k".utf8), message: Array("m".utf8))
        #expect(HMACSHA256.authenticationCode(key: Array("K".utf8), message: Array("m".utf8)) != code)
        #expect(HMACSHA256.authenticationCode(key: Array("k".utf8), message: Array("M".utf8)) != code)
        #expect(HMACSHA256.authenticationCode(key: "k".utf8, message: "m".utf8) == code)
    }
}
