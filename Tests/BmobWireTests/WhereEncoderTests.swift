import BmobWire
import Testing

/// ``WhereEncoder``'s canonical JSON and the round trips with ``WhereParser``.
@Suite struct WhereEncoderTests {
    @Test func equalToIsBareUnlessItLooksLikeOperators() {
        #expect(compactJSON(WhereEncoder.encode(field("a", .equalTo(1)))) == #"{"a":1}"#)
        #expect(compactJSON(WhereEncoder.encode(field("a", .equalTo(["b": 1])))) == #"{"a":{"b":1}}"#)
        #expect(compactJSON(WhereEncoder.encode(field("a", .equalTo(["$b": 1])))) == #"{"a":{"$eq":{"$b":1}}}"#)
        #expect(
            compactJSON(WhereEncoder.encode(.field(path: "a", constraints: [.equalTo(1), .lessThan(5)])))
                == #"{"a":{"$eq":1,"$lt":5}}"#)
    }

    @Test func andOfDistinctPathsIsFlattened() {
        let condition = QueryCondition.and([
            field("a", .equalTo(1)), .and([field("b", .greaterThan(2)), .or([field("c", .exists(true))])]),
        ])
        #expect(compactJSON(WhereEncoder.encode(condition)) == #"{"$or":[{"c":{"$exists":true}}],"a":1,"b":{"$gt":2}}"#)
    }

    @Test func andOfTheSamePathUsesAnd() {
        let condition = QueryCondition.and([field("a", .greaterThan(1)), field("a", .lessThan(5))])
        #expect(compactJSON(WhereEncoder.encode(condition)) == #"{"$and":[{"a":{"$gt":1}},{"a":{"$lt":5}}]}"#)
        let repeated = QueryCondition.field(path: "a", constraints: [.lessThan(1), .greaterThan(0), .lessThan(2)])
        #expect(compactJSON(WhereEncoder.encode(repeated)) == #"{"$and":[{"a":{"$gt":0,"$lt":1}},{"a":{"$lt":2}}]}"#)
    }

    @Test func distancesAreRadians() throws {
        let parsed = try WhereParser.parse(
            text:
                #"{"g":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$maxDistanceInKilometers":637.1}}"#
        )
        let encoded = WhereEncoder.encode(try #require(parsed))
        #expect(encoded["g"]?["$maxDistanceInRadians"]?.doubleValue.map { abs($0 - 0.1) < 1e-12 } == true)
        #expect(encoded["g"]?["$maxDistanceInKilometers"] == nil)
    }

    @Test func emptyConditions() {
        #expect(compactJSON(WhereEncoder.encode(.and([]))) == "{}")
        #expect(compactJSON(WhereEncoder.encode(nil as QueryCondition?)) == "{}")
        #expect(compactJSON(WhereEncoder.encode(.or([]))) == #"{"$or":[]}"#)
    }

    /// Canonical texts (sorted keys, compact) come back byte for byte.
    @Test(arguments: [
        #"{"name":"smile"}"#,
        #"{"a":1,"b":{"$gt":1,"$lt":5}}"#,
        #"{"score":{"$gte":1,"$in":[1,2.5,"x",null,true],"$ne":3,"$nin":[]}}"#,
        #"{"tags":{"$all":["a","b"],"$exists":true}}"#,
        #"{"o":{"$eq":{"$x":1}}}"#,
        #"{"title":{"$options":"i","$regex":"^WTO.*"}}"#,
        #"{"title":{"$regex":"x"}}"#,
        #"{"$or":[{"a":1},{"b":{"$lt":2}}]}"#,
        #"{"$and":[{"a":{"$gt":1}},{"a":{"$lt":5}}]}"#,
        #"{"$or":[{}]}"#,
        #"{"$or":[{"a":1}],"b":2,"c.d":3}"#,
        #"{"$relatedTo":{"key":"likes","object":{"__type":"Pointer","className":"Post","objectId":"8913e0b65f"}}}"#,
        #"{"hometown":{"$select":{"key":"city","query":{"className":"Team","where":{"winPct":{"$gt":0.5}}}}}}"#,
        #"{"hometown":{"$dontSelect":{"key":"city","query":{"className":"Team","where":{}}}}}"#,
        #"{"author":{"$inQuery":{"className":"_User","where":{"username":"bob"}}}}"#,
        #"{"author":{"$notInQuery":{"className":"_User","where":{"$or":[{"a":1},{"b":2}]}}}}"#,
        #"{"gps":{"$nearSphere":{"__type":"GeoPoint","latitude":24.52065,"longitude":112.934755}}}"#,
        #"{"gps":{"$maxDistanceInRadians":0.1,"$nearSphere":{"__type":"GeoPoint","latitude":-30.5,"longitude":120}}}"#,
        #"{"gps":{"$within":{"$box":[{"__type":"GeoPoint","latitude":24.5,"longitude":102.9},{"__type":"GeoPoint","latitude":30,"longitude":112.9}]}}}"#,
        #"{"createdAt":{"$gte":{"__type":"Date","iso":"2015-06-29 00:00:00"}},"updatedAt":{"$lt":"2015"}}"#,
    ])
    func canonicalTextsRoundTrip(text: String) throws {
        let condition = try #require(try WhereParser.parse(text: text))
        #expect(WhereEncoder.encode(condition).jsonString == text)
    }

    /// `parse(encode(c))` means the same as `c` for pseudo-random trees, and re-encoding is a fixed point.
    @Test(arguments: 0..<8)
    func generatedConditionsRoundTrip(batch: UInt64) throws {
        var generator = QueryConditionGenerator(seed: 0xB0B + batch)
        for _ in 0..<50 {
            let condition = generator.condition()
            let encoded = WhereEncoder.encode(condition)
            let parsed = try WhereParser.parse(encoded)
            #expect(normalized(parsed) == normalized(condition), "\(encoded.jsonString)")
            // Through text too, where numbers may change kind but meaning and canonical text stay.
            let reparsed = try WhereParser.parse(text: encoded.jsonString)
            #expect(WhereEncoder.encode(reparsed).jsonString == encoded.jsonString)
        }
    }
}
