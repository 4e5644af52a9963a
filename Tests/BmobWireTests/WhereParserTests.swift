import BmobWire
import Testing

/// Every `where` operator of bmob.md §7 read by ``WhereParser``.
@Suite struct WhereParserTests {
    @Test func emptyObjectIsNoCondition() throws {
        #expect(try WhereParser.parse(text: "{}") == nil)
        #expect(try WhereParser.parse(.object([:])) == nil)
        #expect(try WhereParser.parse(text: " { } ") == nil)
    }

    @Test func bareValuesAreEqualTo() {
        #expect(whereCondition(#"{"name":"smile"}"#) == field("name", .equalTo("smile")))
        #expect(whereCondition(#"{"arrayKey":2}"#) == field("arrayKey", .equalTo(2)))
        #expect(whereCondition(#"{"flag":null}"#) == field("flag", .equalTo(nil)))
        #expect(whereCondition(#"{"list":[1,"a"]}"#) == field("list", .equalTo([1, "a"])))
        let author: JSONValue = ["__type": "Pointer", "className": "_User", "objectId": "55a39634"]
        #expect(
            whereCondition(#"{"author":{"__type":"Pointer","className":"_User","objectId":"55a39634"}}"#)
                == field("author", .equalTo(author)))
        #expect(whereCondition(#"{"meta":{"a":{"$gt":1}}}"#) == field("meta", .equalTo(["a": ["$gt": 1]])))
    }

    @Test func eqOperator() {
        #expect(whereCondition(#"{"name":{"$eq":"smile"}}"#) == field("name", .equalTo("smile")))
        #expect(whereCondition(#"{"o":{"$eq":{"$x":1}}}"#) == field("o", .equalTo(["$x": 1])))
    }

    @Test(arguments: [
        (#"{"score":{"$ne":5}}"#, FieldConstraint.notEqualTo(5)),
        (#"{"score":{"$lt":5}}"#, .lessThan(5)),
        (#"{"score":{"$lte":5.5}}"#, .lessThanOrEqualTo(5.5)),
        (#"{"score":{"$gt":"a"}}"#, .greaterThan("a")),
        (#"{"score":{"$gte":true}}"#, .greaterThanOrEqualTo(true)),
        (#"{"score":{"$in":[1,3,5]}}"#, .containedIn([1, 3, 5])),
        (#"{"score":{"$nin":[]}}"#, .notContainedIn([])),
        (#"{"score":{"$all":["a","b"]}}"#, .containsAll(["a", "b"])),
        (#"{"score":{"$exists":true}}"#, .exists(true)),
        (#"{"score":{"$exists":false}}"#, .exists(false)),
        (#"{"score":{"$regex":"^WTO.*"}}"#, .matchesRegex(pattern: "^WTO.*", options: "")),
        (#"{"score":{"$regex":"wto","$options":"im"}}"#, .matchesRegex(pattern: "wto", options: "im")),
    ])
    func singleOperators(text: String, constraint: FieldConstraint) {
        #expect(whereCondition(text) == field("score", constraint))
    }

    @Test func datesCompare() {
        let date: JSONValue = ["__type": "Date", "iso": "2015-06-29T00:00:00.000Z"]
        #expect(
            whereCondition(#"{"createdAt":{"$gte":{"__type":"Date","iso":"2015-06-29T00:00:00.000Z"}}}"#)
                == field("createdAt", .greaterThanOrEqualTo(date)))
    }

    @Test func severalOperatorsOnOneKeyAreOneField() {
        #expect(
            whereCondition(#"{"score":{"$lt":5,"$gt":1,"$ne":3}}"#)
                == .field(path: "score", constraints: [.greaterThan(1), .lessThan(5), .notEqualTo(3)]))
    }

    @Test func severalKeysAreAndInKeyOrder() {
        #expect(
            whereCondition(#"{"b":1,"a":{"$gt":2},"address.city":"x"}"#)
                == .and([field("a", .greaterThan(2)), field("address.city", .equalTo("x")), field("b", .equalTo(1))]))
    }

    @Test func orAndAnd() {
        #expect(
            whereCondition(#"{"$or":[{"a":1},{"b":{"$lt":2}}]}"#)
                == .or([field("a", .equalTo(1)), field("b", .lessThan(2))]))
        #expect(
            whereCondition(#"{"$and":[{"a":1},{"a":2}]}"#) == .and([field("a", .equalTo(1)), field("a", .equalTo(2))]))
        #expect(
            whereCondition(#"{"$or":[{"a":1},{}],"c":true}"#)
                == .and([.or([field("a", .equalTo(1)), .and([])]), field("c", .equalTo(true))]))
        #expect(whereCondition(#"{"$or":[]}"#) == .or([]))
    }

    @Test func selectAndDontSelect() {
        let team = SubQuery(className: "Team", condition: field("winPct", .greaterThan(0.5)))
        #expect(
            whereCondition(
                #"{"hometown":{"$select":{"query":{"className":"Team","where":{"winPct":{"$gt":0.5}}},"key":"city"}}}"#)
                == field("hometown", .matchesKeyInQuery(key: "city", query: team)))
        #expect(
            whereCondition(#"{"hometown":{"$dontSelect":{"query":{"className":"Team"},"key":"city"}}}"#)
                == field(
                    "hometown", .doesNotMatchKeyInQuery(key: "city", query: SubQuery(className: "Team", condition: nil))
                ))
    }

    @Test func inQueryAndNotInQuery() {
        let users = SubQuery(className: "_User", condition: field("username", .equalTo("bob")))
        #expect(
            whereCondition(#"{"author":{"$inQuery":{"where":{"username":"bob"},"className":"_User"}}}"#)
                == field("author", .matchesQuery(users)))
        #expect(
            whereCondition(#"{"author":{"$notInQuery":{"where":{"username":"bob"},"className":"_User","limit":5}}}"#)
                == field("author", .doesNotMatchQuery(users)))
        #expect(
            whereCondition(#"{"author":{"$inQuery":{"className":"_User","where":{}}}}"#)
                == field("author", .matchesQuery(SubQuery(className: "_User", condition: nil))))
    }

    @Test func relatedToAtTopLevel() {
        let post = pointer("Post", "8913e0b65f")
        #expect(
            whereCondition(
                #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"8913e0b65f"},"key":"likes"}}"#
            )
                == .relatedTo(object: post, key: "likes"))
    }

    @Test func relatedToNestedUnderAFieldAsPythonSendsIt() {
        let post = pointer("Post", "8913e0b65f")
        #expect(
            whereCondition(
                #"{"likes":{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"8913e0b65f"},"key":"likes"}}}"#
            )
                == .relatedTo(object: post, key: "likes"))
        #expect(
            whereCondition(
                #"{"likes":{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"8913e0b65f"}}}}"#)
                == .relatedTo(object: post, key: "likes"))
    }

    @Test func nearSphereDistancesInRadians() throws {
        let point = #"{"__type":"GeoPoint","latitude":30,"longitude":120}"#
        #expect(
            whereCondition(#"{"gps":{"$nearSphere":\#(point)}}"#)
                == field("gps", .nearSphere(geo(30, 120), maxDistanceRadians: nil)))
        #expect(
            whereCondition(#"{"gps":{"$nearSphere":\#(point),"$maxDistanceInRadians":0.25}}"#)
                == field("gps", .nearSphere(geo(30, 120), maxDistanceRadians: 0.25)))
        #expect(
            whereCondition(#"{"gps":{"$nearSphere":\#(point),"$maxDistance":1}}"#)
                == field("gps", .nearSphere(geo(30, 120), maxDistanceRadians: 1)))
        let kilometers = try #require(
            whereCondition(#"{"gps":{"$nearSphere":\#(point),"$maxDistanceInKilometers":6371}}"#))
        #expect(kilometers == field("gps", .nearSphere(geo(30, 120), maxDistanceRadians: 1)))
        let miles = try #require(whereCondition(#"{"gps":{"$nearSphere":\#(point),"$maxDistanceInMiles":395.88}}"#))
        guard case .field(_, let constraints) = miles, case .nearSphere(_, let radians?) = constraints.first else {
            Issue.record("expected nearSphere, got \(miles)")
            return
        }
        #expect(abs(radians - 0.1) < 1e-12)
    }

    @Test func withinBox() {
        let southwest = #"{"__type":"GeoPoint","latitude":24.5,"longitude":102.9}"#
        let northeast = #"{"__type":"GeoPoint","latitude":30,"longitude":112.9}"#
        #expect(
            whereCondition(#"{"gps":{"$within":{"$box":[\#(southwest),\#(northeast)]}}}"#)
                == field("gps", .withinBox(southwest: geo(24.5, 102.9), northeast: geo(30, 112.9))))
    }

    @Test func systemFieldsAndPaths() {
        #expect(whereCondition(#"{"objectId":"e1kXT22L"}"#) == field("objectId", .equalTo("e1kXT22L")))
        #expect(whereCondition(#"{"updatedAt":{"$lt":"x"}}"#) == field("updatedAt", .lessThan("x")))
        #expect(
            whereCondition(#"{"projectExperiences.0.name":"x"}"#) == field("projectExperiences.0.name", .equalTo("x")))
    }

    @Test func havingAcceptsAggregateNames() throws {
        #expect(
            try WhereParser.parseHaving(text: #"{"_sumScore":{"$gt":100}}"#) == field("_sumScore", .greaterThan(100)))
        #expect(
            try WhereParser.parseHaving(text: #"{"_count":3,"name":"a"}"#)
                == .and([field("_count", .equalTo(3)), field("name", .equalTo("a"))]))
        #expect(
            try WhereParser.parseHaving(text: "{'_sumScore': {'$gt': 1}, 'ok': True, 'n': None, 'f': False}")
                == .and([
                    field("_sumScore", .greaterThan(1)), field("f", .equalTo(false)), field("n", .equalTo(nil)),
                    field("ok", .equalTo(true)),
                ]))
        // Aggregate names are for having only.
        #expect(queryError { try WhereParser.parse(text: #"{"_sumScore":1}"#) }?.code == .invalidQuery)
    }

    @Test func pythonReprConversion() {
        #expect(
            PythonLiteral.jsonText(fromRepr: "{'a': 'it\\'s', 'b': \"say \\\"hi\\\"\", 'c': 'x\"y'}")
                == #"{"a": "it's", "b": "say \"hi\"", "c": "x\"y"}"#)
        #expect(
            PythonLiteral.jsonText(fromRepr: "{'True': True, 'v': [None, False]}")
                == #"{"True": true, "v": [null, false]}"#)
        #expect(PythonLiteral.jsonText(fromRepr: "{'a': 'open") == nil)
    }
}
