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

/// Size limits of a whole `where`: conditions and listed values are counted across `$or`, `$and` and
/// sub-queries, and a `where` over them is refused with 402 before anything is compiled, so it can never reach
/// SQLite's limits (expression depth 1000, 32766 bound values).
@Suite struct WhereParserSizeLimitTests {
    /// `{"$or": [{"n": 0}, {"n": 1}, …]}`.
    static func or(_ count: Int) -> JSONValue {
        ["$or": .array((0..<count).map { ["n": .int(Int64($0))] })]
    }

    private func code(_ json: JSONValue) -> BmobErrorCode? {
        queryError { try WhereParser.parse(json) }?.code
    }

    @Test(arguments: [994, 5000, WhereParser.maximumConditions + 1])
    func theProbesOrBranchesAre402(_ branches: Int) {
        let error = queryError { try WhereParser.parse(Self.or(branches)) }
        #expect(error?.code == .whereTooLarge)
        #expect(error?.message.contains("\(WhereParser.maximumConditions)") == true)
        // The same as a having, and nested inside a sub-query.
        #expect(queryError { try WhereParser.parseHaving(Self.or(branches)) }?.code == .whereTooLarge)
        let nested: JSONValue = ["post": ["$inQuery": ["className": "Post", "where": Self.or(branches)]]]
        #expect(code(nested) == .whereTooLarge)
    }

    @Test func exactlyTheLimitIsAccepted() throws {
        let condition = try WhereParser.parse(Self.or(WhereParser.maximumConditions))
        guard case .or(let branches)? = condition else {
            Issue.record("expected an $or")
            return
        }
        #expect(branches.count == WhereParser.maximumConditions)
    }

    @Test func conditionsAddUpAcrossBranchesFieldsAndSubQueries() throws {
        let half = WhereParser.maximumConditions / 2
        // Half the limit in branches of two conditions each: exactly the limit.
        let pairs: JSONValue = ["$or": .array((0..<half).map { ["a": .int(Int64($0)), "b": 1] })]
        #expect(try WhereParser.parse(pairs) != nil)
        // One more condition anywhere, here in a sub-query beside it, is too many.
        let more: JSONValue = [
            "$and": [pairs, ["p": ["$inQuery": ["className": "P", "where": ["x": 1]]]]],
        ]
        #expect(code(more) == .whereTooLarge)
        // Several operators on one field each count; $options and $maxDistance… only qualify another.
        let operators: JSONValue = [
            "$and": .array(
                (0..<(half - 1)).map { _ in ["s": ["$gt": 1, "$lt": 9]] } + [
                    ["name": ["$regex": "^a", "$options": "i"]],
                    ["at": ["$nearSphere": ["__type": "GeoPoint", "latitude": 1, "longitude": 2], "$maxDistanceInKilometers": 5]],
                ])
        ]
        #expect(try WhereParser.parse(operators) != nil)
    }

    @Test func allValuesCountAsConditionsAndEmptyBranchesCountOnce() {
        let all: JSONValue = ["tags": ["$all": .array((0...WhereParser.maximumConditions).map { .int(Int64($0)) })]]
        #expect(code(all) == .whereTooLarge)
        let empty: JSONValue = ["$or": .array(Array(repeating: [:], count: WhereParser.maximumConditions + 1))]
        #expect(code(empty) == .whereTooLarge)
        let deepEmpty: JSONValue = [
            "$and": .array(Array(repeating: ["$or": .array(Array(repeating: [:], count: 300))], count: 2))
        ]
        #expect(code(deepEmpty) == .whereTooLarge)
    }

    @Test func listedValuesAddUpToTheirTotal() throws {
        let list = JSONValue.array((0..<WhereParser.maximumListLength).map { .int(Int64($0)) })
        let two: JSONValue = ["a": ["$in": list], "b": ["$nin": list]]
        #expect(try WhereParser.parse(two) != nil)
        let three: JSONValue = ["a": ["$in": list], "b": ["$nin": list], "c": ["$in": [1]]]
        let error = queryError { try WhereParser.parse(three) }
        #expect(error?.code == .whereTooLarge)
        #expect(error?.message.contains("\(WhereParser.maximumTotalListLength)") == true)
    }
}
