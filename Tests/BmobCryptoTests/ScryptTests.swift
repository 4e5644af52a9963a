import BmobCrypto
import Testing

/// Scrypt against RFC 7914 §12, its parameter checks, and the Swift implementation against the platform's.
@Suite struct ScryptTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let salt: String
        let logN: Int
        let r: Int
        let p: Int
        let key: String
        var testDescription: String { "N=\(1 << logN) r=\(r) p=\(p)" }
    }

    /// The first two vectors of RFC 7914 §12; the other two need 16 MiB and 1 GiB and seconds per run.
    static let vectors = [
        Vector(
            password: "", salt: "", logN: 4, r: 1, p: 1,
            key: "77 d6 57 62 38 65 7b 20 3b 19 ca 42 c1 8a 04 97 f1 6b 48 44 e3 07 4a e8 df df fa 3f ed e2 14 42"
                + "fc d0 06 9d ed 09 48 f8 32 6a 75 3a 0f c8 1f 17 e8 d3 e0 fb 2e 0d 36 28 cf 35 e2 0c 38 d1 89 06"),
        Vector(
            password: "password", salt: "NaCl", logN: 10, r: 8, p: 16,
            key: "fd ba be 1c 9d 34 72 00 78 56 e7 19 0d 01 e9 fe 7c 6a d7 cb c8 23 78 30 e7 73 76 63 4b 37 31 62"
                + "2e af 30 d9 2e 22 a3 88 6f f1 09 27 9d 98 30 da c7 27 af b9 4a 83 ee 6d 83 60 cb df a2 cc 06 40"),
    ]

    @Test(arguments: vectors) func rfc7914(vector: Vector) {
        let key = Scrypt.derive(
            password: Array(vector.password.utf8), salt: Array(vector.salt.utf8), logN: vector.logN, r: vector.r,
            p: vector.p, length: 64)
        #expect(key == Hex.bytes(vector.key))
    }

    /// The Swift implementation, which Apple platforms use, on the same vectors.
    @Test(arguments: vectors) func portableRFC7914(vector: Vector) {
        let key = PortableScrypt.derive(
            password: Array(vector.password.utf8), salt: Array(vector.salt.utf8), logN: vector.logN, r: vector.r,
            p: vector.p, length: 64)
        #expect(key == Hex.bytes(vector.key))
    }

    /// The Swift implementation agrees with ``Scrypt/derive`` (OpenSSL on Linux) across shapes: odd lengths,
    /// r > 1 with p > 1, long passwords and salts.
    @Test(arguments: [(1, 1, 1, 1), (3, 2, 3, 33), (6, 4, 2, 100), (8, 3, 1, 7)])
    func portableMatchesPlatform(logN: Int, r: Int, p: Int, length: Int) {
        let password = (0..<(10 * logN)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let salt = (0..<(7 * r + 3)).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) }
        let platform = Scrypt.derive(password: password, salt: salt, logN: logN, r: r, p: p, length: length)
        let portable = PortableScrypt.derive(password: password, salt: salt, logN: logN, r: r, p: p, length: length)
        #expect(platform?.count == length)
        #expect(platform == portable)
    }

    /// RFC 7914 §11: PBKDF2-HMAC-SHA256 with one iteration, which scrypt uses on either side of its mixing.
    @Test func pbkdf2Vector() {
        let key = PBKDF2SHA256.derive(
            password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        #expect(
            key
                == Hex.bytes(
                    "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
    }

    /// RFC 7914 §11's second PBKDF2 vector exercises many iterations (80 000).
    @Test func pbkdf2ManyIterations() {
        let key = PBKDF2SHA256.derive(
            password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, length: 64)
        #expect(
            key
                == Hex.bytes(
                    "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
    }

    /// Invalid parameters give `nil`, never a crash: N below 2 or at least 2^(16r), r or p zero or negative,
    /// r·p ≥ 2³⁰, an output length outside 1…``Scrypt/maximumMemory``, or a block table larger than that.
    @Test(arguments: [
        (0, 1, 1, 32), (-1, 1, 1, 32), (4, 0, 1, 32), (4, 1, 0, 32), (4, -8, 1, 32), (4, 1, -1, 32), (4, 1, 1, 0),
        (4, 1, 1, -5), (4, 1, 1, (1 << 30) + 1), (16, 1, 1, 32), (40, 8, 1, 32), (20, 16, 1, 32),
        (4, 1 << 15, 1 << 15, 32), (63, 8, 1, 32),
    ])
    func invalidParameters(logN: Int, r: Int, p: Int, length: Int) {
        #expect(Scrypt.derive(password: [1], salt: [2], logN: logN, r: r, p: p, length: length) == nil)
    }

    /// N must stay below 2^(16r): with r = 1, logN 15 is the largest; memory is 128·r·(N + p + 2) bytes.
    @Test func largestCostForOneBlockIsAccepted() {
        #expect(Scrypt.workingMemory(logN: 15, r: 1, p: 1) == 128 * ((1 << 15) + 3))
        #expect(Scrypt.workingMemory(logN: 16, r: 1, p: 1) == nil)
        #expect(Scrypt.workingMemory(logN: 15, r: 8, p: 1) == 128 * 8 * ((1 << 15) + 3))
    }

    @Test func passwordAndSaltBothMatter() {
        let key = Scrypt.derive(password: [1, 2, 3], salt: [4, 5, 6], logN: 4, r: 1, p: 1, length: 32)
        #expect(key != nil)
        #expect(Scrypt.derive(password: [1, 2, 4], salt: [4, 5, 6], logN: 4, r: 1, p: 1, length: 32) != key)
        #expect(Scrypt.derive(password: [1, 2, 3], salt: [4, 5, 7], logN: 4, r: 1, p: 1, length: 32) != key)
        #expect(Scrypt.derive(password: [1, 2, 3], salt: [4, 5, 6], logN: 5, r: 1, p: 1, length: 32) != key)
    }
}
