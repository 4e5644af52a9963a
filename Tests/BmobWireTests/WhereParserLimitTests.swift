import BmobWire
import Testing

@Suite struct WhereParserLimitTests {
    @Test func listsLongerThanTheLimitAre102() throws {
        let tooMany = JSONValue.array((0...WhereParser.maximumListLength).map { .int(Int64($0)) })
        #expect {
            _ = try WhereParser.parse(["score": ["$in": tooMany]])
        } throws: { error in
            (error as? QueryParseError)?.code == .invalidQuery
        }
        let enough = JSONValue.array((0..<WhereParser.maximumListLength).map { .int(Int64($0)) })
        #expect(try WhereParser.parse(["score": ["$nin": enough]]) != nil)
    }
}
