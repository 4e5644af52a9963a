import BmobCrypto
import Testing

/// Blowfish's initial state is computed from π's hexadecimal digits; well-known words pin it down, and the bcrypt
/// vectors (``BcryptTests``) exercise every one of the 1042 words.
@Suite struct BlowfishTablesTests {
    @Test func shape() {
        let tables = BlowfishTables.initial
        #expect(tables.words.count == 1042)
        #expect(tables.p.count == 18)
        #expect((0..<4).allSatisfy { tables.sBox($0).count == 256 })
    }

    /// π = 3.243F6A88 85A308D3 13198A2E 03707344 … in hexadecimal.
    @Test func firstWordsArePi() {
        #expect(Array(BlowfishTables.initial.p.prefix(4)) == [0x243F_6A88, 0x85A3_08D3, 0x1319_8A2E, 0x0370_7344])
    }

    /// The boundaries: the last P word, the first word of S-box 0, and the last word of S-box 3 (the 1042nd
    /// word of π's fraction), checked against an independent arbitrary-precision computation of π.
    @Test func boundaryWords() {
        let tables = BlowfishTables.initial
        #expect(tables.p.last == 0x8979_FB1B)
        #expect(tables.sBox(0).first == 0xD131_0BA6)
        #expect(tables.sBox(3).last == 0x3AC3_72E6)
    }

    /// Shorter computations agree with the longer one: the guard limb absorbs the truncation of every term.
    @Test func prefixesAgree() {
        let words = BlowfishTables.initial.words
        for count in [1, 2, 3, 17, 18, 100] {
            #expect(PiHexDigits.fractionWords(count) == Array(words.prefix(count)))
        }
    }
}
