import BmobCrypto
import Testing

/// The stored password format: scrypt strings made and verified, malformed strings refused, rehash decisions.
@Suite struct PasswordHashTests {
    /// Cheap parameters so the suite stays fast; one test below uses the defaults.
    static let fast = ScryptParameters(logN: 4, r: 1, p: 1)

    @Test func roundTrip() {
        let stored = PasswordHash.make("correct horse battery staple", parameters: Self.fast)
        #expect(PasswordHash.verify("correct horse battery staple", against: stored))
        #expect(!PasswordHash.verify("correct horse battery stapler", against: stored))
        #expect(!PasswordHash.verify("Correct horse battery staple", against: stored))
        #expect(!PasswordHash.verify("", against: stored))
    }

    @Test func unicodeAndEmptyPasswords() {
        for password in ["pässwörd ✓ 密码 🔑", "", "a\u{0}b"] {
            let stored = PasswordHash.make(password, parameters: Self.fast)
            #expect(PasswordHash.verify(password, against: stored))
        }
        // Bytes are hashed as given: a decomposed "é" is a different password from the precomposed one.
        let precomposed = PasswordHash.make("caf\u{E9}", parameters: Self.fast)
        #expect(!PasswordHash.verify("cafe\u{301}", against: precomposed))
        // A NUL does not end a scrypt password.
        #expect(!PasswordHash.verify("a", against: PasswordHash.make("a\u{0}b", parameters: Self.fast)))
    }

    @Test func hashesOfOnePasswordDiffer() {
        let first = PasswordHash.make("same", parameters: Self.fast)
        let second = PasswordHash.make("same", parameters: Self.fast)
        #expect(first != second)
        #expect(PasswordHash.verify("same", against: first) && PasswordHash.verify("same", against: second))
    }

    /// `$scrypt$ln=15,r=8,p=1$` then 22 characters of salt (16 bytes) and 43 of key (32 bytes), standard base64
    /// without padding. The only test at full cost (two derivations of about 32 MiB each).
    @Test func defaultFormat() {
        let stored = PasswordHash.make("hunter2")
        #expect(PasswordHash.verify("hunter2", against: stored))
        #expect(!PasswordHash.needsRehash(stored))
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        #expect(fields.count == 5)
        #expect(fields.prefix(3) == ["", "scrypt", "ln=15,r=8,p=1"])
        #expect(fields[3].count == 22)
        #expect(fields[4].count == 43)
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        #expect(fields[3].allSatisfy { alphabet.contains($0) } && fields[4].allSatisfy { alphabet.contains($0) })
    }

    /// A string made outside this code: the format is exactly the parameters, then salt and key in base64.
    @Test func knownString() {
        // scrypt("secret", salt 00 01 … 0f, N = 16, r = 1, p = 1, 32 bytes), from Python's hashlib.scrypt.
        let stored = "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8"
        #expect(PasswordHash.verify("secret", against: stored))
        #expect(!PasswordHash.verify("secreT", against: stored))
        #expect(PasswordHash.needsRehash(stored))
        #expect(!PasswordHash.needsRehash(stored, parameters: Self.fast))
    }

    static let malformed = [
        "", "$", "$$$$", "plain", "$scrypt$", "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8$",
        "$scrypt$ln=4,r=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$r=1,ln=4,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=04,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=+4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=0,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=99999999999999999999,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=21,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=0,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=17$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=20,r=32,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw==$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODx$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0OD$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN-s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAEC$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$",
        " $scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$SCRYPT$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcI\u{E9}QoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk8",
        "$2b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYd",
        "$2b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdOO",
        "$2b$03$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$2b$32$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$2b$4a$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$2x$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$2c$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$3b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
        "$2b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxY+O",
        "$2b$04PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO$",
        "$2b$04$PP4sgBSQNiU4ci4Uqpb6g=5rLAku6yAExwAgr5Edn7uETgJ4bxYdO",
    ]

    /// Every malformed string is refused without a crash, for the right password too.
    @Test(arguments: malformed) func malformedStoredStrings(stored: String) {
        #expect(!PasswordHash.verify("secret", against: stored))
        #expect(!PasswordHash.verify("correct horse battery staple", against: stored))
        #expect(PasswordHash.needsRehash(stored))
    }

    @Test func needsRehash() {
        let current = ScryptParameters(logN: 6, r: 2, p: 2)
        let stored = PasswordHash.make("pw", parameters: current)
        #expect(!PasswordHash.needsRehash(stored, parameters: current))
        #expect(!PasswordHash.needsRehash(stored, parameters: ScryptParameters(logN: 5, r: 1, p: 1)))
        #expect(PasswordHash.needsRehash(stored, parameters: ScryptParameters(logN: 7, r: 2, p: 2)))
        #expect(PasswordHash.needsRehash(stored, parameters: ScryptParameters(logN: 6, r: 3, p: 2)))
        #expect(PasswordHash.needsRehash(stored, parameters: ScryptParameters(logN: 6, r: 2, p: 3)))
        #expect(PasswordHash.needsRehash(stored))
        // Imported bcrypt hashes are always replaced, whatever their cost.
        let bcrypt = "$2b$04$PP4sgBSQNiU4ci4Uqpb6gu5rLAku6yAExwAgr5Edn7uETgJ4bxYdO"
        #expect(PasswordHash.needsRehash(bcrypt))
        #expect(PasswordHash.needsRehash(bcrypt, parameters: ScryptParameters(logN: 1, r: 1, p: 1)))
    }

    /// A hash with a short salt or key verifies but is renewed; one with a longer key is kept.
    @Test func shortSaltOrKeyIsRenewed() {
        // scrypt("secret", salt 00 01 … 07, N = 16, r = 1, p = 1, 32 bytes), from Python's hashlib.scrypt.
        let shortSalt = "$scrypt$ln=4,r=1,p=1$AAECAwQFBgc$6EjgTpScpBcvWr/twaqhKWVdVstr1FCf2SLV7nLqEGg"
        #expect(PasswordHash.verify("secret", against: shortSalt))
        #expect(PasswordHash.needsRehash(shortSalt, parameters: Self.fast))
        // The first 16 bytes of the known key (scrypt's output ends in PBKDF2, whose prefixes are stable).
        let shortKey = "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dA"
        #expect(PasswordHash.verify("secret", against: shortKey))
        #expect(PasswordHash.needsRehash(shortKey, parameters: Self.fast))
        // 48 bytes of key (the first 32 are the known key's).
        let longKey =
            "$scrypt$ln=4,r=1,p=1$AAECAwQFBgcICQoLDA0ODw$9PnvUP3hBbjpiLXCucu7dAN/s7DvLvUWFAwizo9PPk/mQDSmIf9ty/C0nuwKRL3M"
        #expect(PasswordHash.verify("secret", against: longKey))
        #expect(!PasswordHash.verify("secrets", against: longKey))
        #expect(!PasswordHash.needsRehash(longKey, parameters: Self.fast))
    }

    @Test func scryptParametersSupport() {
        #expect(PasswordHash.defaultParameters == ScryptParameters(logN: 15, r: 8, p: 1))
        #expect(PasswordHash.defaultParameters.isSupported)
        #expect(ScryptParameters(logN: 20, r: 8, p: 1).isSupported)
        #expect(!ScryptParameters(logN: 21, r: 1, p: 1).isSupported)
        #expect(!ScryptParameters(logN: 20, r: 9, p: 1).isSupported)  // over 1 GiB
        #expect(!ScryptParameters(logN: 0, r: 8, p: 1).isSupported)
        #expect(!ScryptParameters(logN: 10, r: 33, p: 1).isSupported)
        #expect(!ScryptParameters(logN: 10, r: 8, p: 0).isSupported)
    }
}
