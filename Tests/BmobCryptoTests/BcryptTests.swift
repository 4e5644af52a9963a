import BmobCrypto
import Testing

/// bcrypt against published vectors (OpenBSD's and John the Ripper's test sets, also in Python's `bcrypt`) and
/// vectors generated with Python's `bcrypt` 4.3, verified through ``PasswordHash``.
@Suite struct BcryptTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let stored: String
        var testDescription: String { "\(stored.prefix(7)) \(password.prefix(16))" }
    }

    static let published = [
        Vector(password: "U*U", stored: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        Vector(password: "", stored: "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s."),
        Vector(
            password: "abcdefghijklmnopqrstuvwxyz",
            stored: "$2a$06$.rCVZVOThsIa97pEDOxvGuRRgzG64bvtJ0938xuqzv18d3ZpQhstC"),
    ]

    /// 80 bytes of "0123456789…": only the first 72 count.
    static let longPassword = String((0..<80).map { Character(String($0 % 10)) })

    static let generated = [
        Vector(
            password: "correct horse battery staple",
            stored: "$2b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO"),
        Vector(password: longPassword, stored: "$2b$04$PP4sgBSQNiU4ci4Uqpb6gulgHzKW9hUTfP6RpEVFf6a/O1rSDZqKy"),
        Vector(
            password: String(longPassword.prefix(72)),
            stored: "$2b$04$PP4sgBSQNiU4ci4Uqpb6gulgHzKW9hUTfP6RpEVFf6a/O1rSDZqKy"),
        Vector(
            password: String(longPassword.prefix(71)),
            stored: "$2b$04$PP4sgBSQNiU4ci4Uqpb6guRikBxAldZz1tyZUDgc/9.C5xkq5qa1G"),
        Vector(
            password: "pässwörd ✓ 密码", stored: "$2a$05$hZx3wm5ybEvegnGaxHGQMe5nlPu2XqTrIrEHMa/Misp2jjnKleM/q"),
        Vector(
            password: "correct horse battery staple",
            stored: "$2y$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO"),
    ]

    @Test(arguments: published + generated) func verifies(vector: Vector) {
        #expect(PasswordHash.verify(vector.password, against: vector.stored))
        #expect(!PasswordHash.verify("x" + vector.password, against: vector.stored))
        #expect(PasswordHash.needsRehash(vector.stored))
    }

    /// Recomputing the whole string from its salt and cost gives the vector back, character for character.
    @Test(arguments: published + generated) func recomputes(vector: Vector) {
        let bytes = Array(vector.stored.utf8)
        let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self))!
        let minor = Character(UnicodeScalar(bytes[2]))
        let salt = Self.decodeSalt(String(decoding: bytes[7..<29], as: UTF8.self))
        #expect(Bcrypt.hash(password: vector.password.utf8, salt: salt, cost: cost, minor: minor) == vector.stored)
    }

    /// Passwords past 72 bytes match on their first 72 only; 71 bytes still count the terminating NUL.
    @Test func seventyTwoByteLimit() {
        let stored = Self.generated[1].stored
        #expect(PasswordHash.verify(Self.longPassword + "anything", against: stored))
        #expect(PasswordHash.verify(String(Self.longPassword.prefix(72)) + "y", against: stored))
        #expect(!PasswordHash.verify(String(Self.longPassword.prefix(71)), against: stored))
    }

    /// $2a$, $2b$ and $2y$ are the same computation.
    @Test func minorVersionsAgree() {
        let salt = Array(0..<16).map { UInt8($0 * 13) }
        let digests = ["a", "b", "y"].map { (minor: Character) in
            Bcrypt.hash(password: "Parse".utf8, salt: salt, cost: 4, minor: minor).dropFirst(3)
        }
        #expect(digests[0] == digests[1] && digests[1] == digests[2])
    }

    /// bcrypt reads the password as a C string: a NUL ends it.
    @Test func nulEndsThePassword() {
        let salt = [UInt8](repeating: 7, count: 16)
        #expect(
            Bcrypt.digest(password: Array("ab\u{0}cd".utf8), salt: salt, cost: 4)
                == Bcrypt.digest(password: Array("ab".utf8), salt: salt, cost: 4))
        #expect(
            Bcrypt.digest(password: Array("abcd".utf8), salt: salt, cost: 4)
                != Bcrypt.digest(password: Array("ab".utf8), salt: salt, cost: 4))
    }

    @Test func saltAndCostBothMatter() {
        let salt = [UInt8](repeating: 1, count: 16)
        var otherSalt = salt
        otherSalt[15] = 2
        let digest = Bcrypt.digest(password: Array("pw".utf8), salt: salt, cost: 4)
        #expect(digest.count == 23)
        #expect(Bcrypt.digest(password: Array("pw".utf8), salt: otherSalt, cost: 4) != digest)
        #expect(Bcrypt.digest(password: Array("pw".utf8), salt: salt, cost: 5) != digest)
    }

    /// bcrypt's base64 salt (22 characters) as 16 bytes, decoded here independently of the library's helper.
    static func decodeSalt(_ text: String) -> [UInt8] {
        let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bits: [Bool] = []
        for character in text.utf8 {
            let value = alphabet.firstIndex(of: character)!
            bits += (0..<6).map { value >> (5 - $0) & 1 == 1 }
        }
        return (0..<16).map { byte in bits[(8 * byte)..<(8 * byte + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
    }
}
