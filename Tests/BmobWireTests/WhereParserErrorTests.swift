import BmobWire
import Testing

/// What ``WhereParser`` rejects, and with which code.
@Suite struct WhereParserErrorTests {
    private func code(_ text: String) -> BmobErrorCode? {
        queryError { try WhereParser.parse(text: text) }?.code
    }

    @Test(arguments: [
        #"[]"#, #""a""#, #"1"#, #"null"#,
        #"{"$foo":1}"#, #"{"a":{"$foo":1}}"#, #"{"a":{"$gt":1,"b":2}}"#,
        #"{"1a":1}"#, #"{"a-b":1}"#, #"{"a..b":1}"#, #"{".a":1}"#, #"{"a.":1}"#, #"{"":1}"#, #"{"a b":1}"#,
        #"{"0.a":1}"#, #"{"_private":1}"#,
        #"{"$or":{}}"#, #"{"$or":[1]}"#, #"{"$and":"x"}"#, #"{"$or":[[]]}"#,
        #"{"a":{"$in":1}}"#, #"{"a":{"$nin":"x"}}"#, #"{"a":{"$all":{}}}"#,
        #"{"a":{"$exists":1}}"#, #"{"a":{"$exists":"true"}}"#,
        #"{"a":{"$lt":[1]}}"#, #"{"a":{"$gte":null}}"#, #"{"a":{"$gt":{"b":1}}}"#,
        #"{"a":{"$regex":1}}"#, #"{"a":{"$regex":"x","$options":"q"}}"#, #"{"a":{"$regex":"x","$options":1}}"#,
        #"{"a":{"$options":"i"}}"#,
        #"{"a":{"$select":{"query":{"className":"T"}}}}"#,
        #"{"a":{"$select":{"query":{"className":"T"},"key":"1x"}}}"#,
        #"{"a":{"$select":{"query":{"className":"T"},"key":"k","extra":1}}}"#,
        #"{"a":{"$select":{"query":{"className":"T","wher":{}},"key":"k"}}}"#,
        #"{"a":{"$select":{"query":"T","key":"k"}}}"#,
        #"{"a":{"$inQuery":{"where":{}}}}"#, #"{"a":{"$inQuery":{"className":"_Foo"}}}"#,
        #"{"a":{"$inQuery":{"className":"Bad-Name"}}}"#, #"{"a":{"$inQuery":{"className":"T","where":[]}}}"#,
        #"{"a":{"$inQuery":{"className":"T","where":{"$bad":1}}}}"#,
        #"{"a":{"$nearSphere":[1,2]}}"#, #"{"a":{"$maxDistanceInKilometers":1}}"#,
        #"{"a":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$maxDistanceInKilometers":-1}}"#,
        #"{"a":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$maxDistanceInKilometers":"1"}}"#,
        #"{"a":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$maxDistanceInKilometers":1,"$maxDistanceInMiles":1}}"#,
        #"{"a":{"$within":{"$box":[]}}}"#, #"{"a":{"$within":{"$polygon":[]}}}"#,
        #"{"a":{"$within":{"$box":[{"__type":"GeoPoint","latitude":10,"longitude":0},{"__type":"GeoPoint","latitude":0,"longitude":0}]}}}"#,
        #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post"},"key":"likes"}}"#,
        #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"x"}}}"#,
        #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"x"},"key":"a.b"}}"#,
        #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":""},"key":"k"}}"#,
        #"{"likes":{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"x"}},"$gt":1}}"#,
        #"{"a":{"__type":"GeoPoint","latitude":"x"}}"#,
        #"{"where":1"#, #"{'a':1}"#,
    ])
    func invalidQueriesAre102(text: String) {
        #expect(code(text) == .invalidQuery)
    }

    @Test(arguments: [
        #"{"gps":{"$nearSphere":{"__type":"GeoPoint","latitude":91,"longitude":0}}}"#,
        #"{"gps":{"$nearSphere":{"__type":"GeoPoint","latitude":0,"longitude":-180.5}}}"#,
        #"{"gps":{"$within":{"$box":[{"__type":"GeoPoint","latitude":0,"longitude":0},{"__type":"GeoPoint","latitude":100,"longitude":0}]}}}"#,
        #"{"gps":{"__type":"GeoPoint","latitude":-90.01,"longitude":0}}"#,
        #"{"gps":{"$in":[{"__type":"GeoPoint","latitude":0,"longitude":181}]}}"#,
    ])
    func geoPointsOutOfRangeAre117(text: String) {
        #expect(code(text) == .invalidGeoPoint)
    }

    @Test func invalidJSONCarriesItsOffset() throws {
        let error = try #require(queryError { try WhereParser.parse(text: #"{"a":1,}"#) })
        #expect(error.code == .invalidQuery)
        #expect(error.offset == 7)
        #expect(error.description.hasPrefix("where is not valid JSON"))
        #expect(error.description.hasSuffix("at byte 7"))
    }

    @Test func messagesAreClearAndLogSafe() throws {
        let inError = try #require(queryError { try WhereParser.parse(text: #"{"tags":{"$in":"secret-value"}}"#) })
        #expect(inError.description == "$in on 'tags' expects an array")
        let unknown = try #require(queryError { try WhereParser.parse(text: #"{"a":{"$foo":"secret-value"}}"#) })
        #expect(unknown.description == "unknown operator '$foo' on 'a'")
        let path = try #require(queryError { try WhereParser.parse(text: #"{"bad\nkey":1}"#) })
        #expect(path.description == "invalid field path 'bad?key'")
        #expect(!path.debugDescription.isEmpty)
    }

    @Test func nestingIsBounded() {
        func nested(_ levels: Int) -> String {
            String(repeating: #"{"$and":["#, count: levels) + #"{"a":1}"# + String(repeating: "]}", count: levels)
        }
        #expect(whereCondition(nested(WhereParser.maximumDepth)) != nil)
        #expect(code(nested(WhereParser.maximumDepth + 1)) == .invalidQuery)
        func subQueries(_ levels: Int) -> String {
            String(repeating: #"{"p":{"$inQuery":{"className":"T","where":"#, count: levels) + "{}"
                + String(repeating: "}}}", count: levels)
        }
        // Sub-queries nest less deep: SQLite's parser stack overflows at six or seven.
        #expect(whereCondition(subQueries(WhereParser.maximumSubQueryDepth)) != nil)
        #expect(code(subQueries(WhereParser.maximumSubQueryDepth + 1)) == .invalidQuery)
        #expect(code(subQueries(WhereParser.maximumDepth + 1)) == .invalidQuery)
        // Deeper than the JSON parser allows is still a 102, not a crash.
        #expect(code(String(repeating: "[", count: 100_000)) == .invalidQuery)
    }
}
