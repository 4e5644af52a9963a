import BmobWire
import Testing

/// Form and path decoding in ``QueryString``.
@Suite struct QueryStringTests {
    /// Pairs as a comparable array.
    private func pairs(_ query: String) -> [[String]] {
        QueryString.parse(query).map { [$0.name, $0.value] }
    }

    @Test func namesAndValues() {
        #expect(pairs("a=1&b=2&a=3") == [["a", "1"], ["b", "2"], ["a", "3"]])
    }

    @Test func plusIsSpaceInForms() {
        #expect(pairs("full+name=John+Q+Public&x=a%2Bb") == [["full name", "John Q Public"], ["x", "a+b"]])
    }

    @Test func percentDecodingIncludingUTF8() {
        #expect(
            pairs("where=%7B%22name%22%3A%22%E4%BD%A0%E5%A5%BD%22%7D") == [
                ["where", "{\"name\":\"\u{4F60}\u{597D}\"}"]
            ])
        #expect(pairs("e=%f0%9f%98%80") == [["e", "\u{1F600}"]])
        #expect(pairs("k%3Dy=v%26w") == [["k=y", "v&w"]])
    }

    @Test(arguments: [
        ("p=p@ss%", "p@ss%"),
        ("p=%", "%"),
        ("p=%4", "%4"),
        ("p=%zz", "%zz"),
        ("p=%4g1", "%4g1"),
        ("p=100%25", "100%"),
        ("p=%%41", "%A"),
    ])
    func malformedEscapesAreKeptLiterally(query: String, value: String) {
        #expect(pairs(query) == [["p", value]])
    }

    @Test func invalidUTF8BecomesReplacementCharacter() {
        #expect(pairs("x=%FFa") == [["x", "\u{FFFD}a"]])
    }

    @Test func emptyPairsAreSkipped() {
        #expect(pairs("&&a=1&&&b=&") == [["a", "1"], ["b", ""]])
        #expect(pairs("").isEmpty)
        #expect(pairs("&").isEmpty)
    }

    @Test func namesWithoutEqualsHaveEmptyValues() {
        #expect(pairs("flag&x=1&other") == [["flag", ""], ["x", "1"], ["other", ""]])
    }

    @Test func onlyTheFirstEqualsSplits() {
        #expect(pairs("a=b=c&=v") == [["a", "b=c"], ["", "v"]])
    }

    @Test func parsesSubstrings() {
        let target = "/1/classes/Note?limit=10&order=-createdAt"
        let query = target[target.index(after: target.firstIndex(of: "?")!)...]
        #expect(QueryString.parse(query).map(\.value) == ["10", "-createdAt"])
    }

    @Test(arguments: [
        ("a+b%20c", "a+b c"),
        ("/files/%E6%96%87%E4%BB%B6.txt", "/files/\u{6587}\u{4EF6}.txt"),
        ("no-escapes", "no-escapes"),
        ("%2F", "/"),
        ("%", "%"),
    ])
    func pathDecodingKeepsPlus(text: String, decoded: String) {
        #expect(QueryString.decode(text, plusIsSpace: false) == decoded)
    }

    @Test func formDecodingTurnsPlusIntoSpace() {
        #expect(QueryString.decode("a+b%20c", plusIsSpace: true) == "a b c")
    }
}
