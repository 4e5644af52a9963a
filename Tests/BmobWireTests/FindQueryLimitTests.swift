import BmobWire
import Testing
import BmobServerCodecs

/// List limits of a find (order, keys, include, statistics fields) in all three forms: REST parameters, the
/// native `data` object and BQL. Each is refused up front (102, or 601 in BQL), far below SQLite's 2000
/// columns or terms.
@Suite struct FindQueryLimitTests {
    /// `a0,a1,…` with `count` names.
    static func names(_ count: Int) -> String {
        (0..<count).map { "a\($0)" }.joined(separator: ",")
    }

    private func rest(_ name: String, _ value: String) -> QueryParseError? {
        queryError { try FindQueryDecoder.decode(className: "Game", parameters: [(name, value)]) }
    }

    private func native(_ name: String, _ value: String) -> QueryParseError? {
        queryError { try FindQueryDecoder.decode(className: "Game", json: [name: .string(value)]) }
    }

    @Test(arguments: [
        ("groupby", 2001, FindQuery.maximumAggregateFields), ("sum", 2001, FindQuery.maximumAggregateFields),
        ("average", FindQuery.maximumAggregateFields + 1, FindQuery.maximumAggregateFields),
        ("max", FindQuery.maximumAggregateFields + 1, FindQuery.maximumAggregateFields),
        ("min", FindQuery.maximumAggregateFields + 1, FindQuery.maximumAggregateFields),
        ("order", 50_000, FindQuery.maximumOrderKeys), ("keys", 50_000, FindQuery.maximumKeys),
        ("include", FindQuery.maximumIncludes + 1, FindQuery.maximumIncludes),
    ])
    func listsOverTheLimitAre102(_ parameter: String, _ count: Int, _ maximum: Int) throws {
        for error in [rest(parameter, Self.names(count)), native(parameter, Self.names(count))] {
            #expect(error?.code == .invalidQuery)
            #expect(error?.message == "\(parameter) lists \(count) items, more than the \(maximum) allowed")
        }
        // The limit itself is fine.
        _ = try FindQueryDecoder.decode(className: "Game", parameters: [(parameter, Self.names(maximum))])
        _ = try FindQueryDecoder.decode(className: "Game", json: [parameter: .string(Self.names(maximum))])
    }

    @Test func nativeArraysCountTheirItems() {
        let array = JSONValue.array((0...FindQuery.maximumOrderKeys).map { .string("k\($0)") })
        let error = queryError { try FindQueryDecoder.decode(className: "Game", json: ["order": array]) }
        #expect(error?.code == .invalidQuery)
    }

    @Test func whereLimitsApplyThroughTheDecoders() {
        let or = WhereParserSizeLimitTests.or(994)
        #expect(rest("where", String(decoding: or.jsonBytes, as: UTF8.self))?.code == .whereTooLarge)
        #expect(queryError { try FindQueryDecoder.decode(className: "Game", json: ["where": or]) }?.code == .whereTooLarge)
        #expect(rest("having", String(decoding: or.jsonBytes, as: UTF8.self))?.code == .whereTooLarge)
    }

    private func bql(_ statement: String, _ values: [JSONValue] = []) -> QueryParseError? {
        queryError { try BQLParser.parse(statement, values: values) }
    }

    @Test func bqlListsOverTheLimitAre601() {
        // 2,001 group-by fields still fit in the 4,096-byte statement when they are one letter each.
        let letters = Array(repeating: "a", count: 2001).joined(separator: ",")
        let groupBy = bql("select count(*) from Game group by \(letters)")
        #expect(groupBy?.code == .invalidBQL)
        #expect(groupBy?.message == "more than \(FindQuery.maximumAggregateFields) group by fields")
        #expect(bql("select * from Game order by \(letters)")?.message == "more than \(FindQuery.maximumOrderKeys) order by keys")
        let sums = Array(repeating: "sum(a)", count: FindQuery.maximumAggregateFields + 1).joined(separator: ",")
        #expect(bql("select \(sums) from Game")?.message == "more than \(FindQuery.maximumAggregateFields) sum() fields")
        let includes = Array(repeating: "include p", count: FindQuery.maximumIncludes + 1).joined(separator: ",")
        #expect(bql("select \(includes) from Game")?.message == "more than \(FindQuery.maximumIncludes) include paths")
        let columns = Array(repeating: "a", count: FindQuery.maximumKeys + 1).joined(separator: ",")
        #expect(bql("select \(columns) from Game")?.message == "more than \(FindQuery.maximumKeys) columns")
        // At the limit they parse.
        let enough = Array(repeating: "a", count: FindQuery.maximumAggregateFields).joined(separator: ",")
        #expect((try? BQLParser.parse("select count(*) from Game group by \(enough)")) != nil)
    }

    @Test func bqlConditionsHaveTheWhereLimits() {
        // As many `or` branches as 4,096 bytes hold, with placeholders: over the limit of conditions.
        let branches = 550
        let condition = Array(repeating: "a=?", count: branches).joined(separator: " or ")
        let error = bql("select * from Game where \(condition)", Array(repeating: 1, count: branches))
        #expect(error?.code == .invalidBQL)
        #expect(error?.message.contains("the \(WhereParser.maximumConditions) conditions") == true)
    }
}
