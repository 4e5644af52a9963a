import BmobWire
import Testing

/// ``BmobName``: which class and field names reach SQL.
@Suite struct BmobNameTests {
    static let longest = "a" + String(repeating: "b", count: BmobName.maximumLength - 1)

    @Test(arguments: ["GameScore", "a", "Z", "note_2", "A1_b2_C3", "x__", longest])
    func validNames(name: String) {
        #expect(BmobName.isValidClassName(name))
        #expect(BmobName.isValidFieldName(name))
    }

    @Test(arguments: [
        "", "1abc", "_abc", "_user", "__User", "a-b", "a b", "a.b", "a$", "名字", "caf\u{E9}", " a", "a ", "a\u{0}",
        "ab\u{301}", "\(longest)c",
    ])
    func invalidNames(name: String) {
        #expect(!BmobName.isValidClassName(name))
        #expect(!BmobName.isValidFieldName(name))
    }

    @Test(arguments: ["_User", "_Role", "_Installation", "_Session"])
    func systemClassesAreValidClassNamesOnly(name: String) {
        #expect(BmobName.systemClasses.contains(name))
        #expect(BmobName.isValidClassName(name))
        #expect(!BmobName.isValidFieldName(name))
    }

    @Test func lengthLimitIs128Bytes() {
        #expect(BmobName.maximumLength == 128)
        #expect(Self.longest.utf8.count == 128)
    }

    @Test func systemFieldsAreWellFormedNames() {
        #expect(BmobName.systemFields == ["objectId", "createdAt", "updatedAt", "ACL"])
        for field in BmobName.systemFields {
            #expect(BmobName.isValidFieldName(field))
        }
    }
}
