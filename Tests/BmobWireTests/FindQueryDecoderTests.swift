import BmobWire
import Testing

/// REST query parameters and native `data` objects read by ``FindQueryDecoder``.
@Suite struct FindQueryDecoderTests {
    private func decode(_ query: String, className: String = "GameScore") throws -> FindQuery {
        try FindQueryDecoder.decode(className: className, parameters: QueryString.parse(query))
    }

    private func errorCode(_ query: String, className: String = "GameScore") -> BmobErrorCode? {
        queryError { try decode(query, className: className) }?.code
    }

    @Test func defaults() throws {
        let query = try decode("")
        #expect(query == FindQuery(className: "GameScore"))
        #expect(query.limit == 100)
        #expect(query.skip == 0)
        #expect(query.keys == nil)
        #expect(query.aggregation == nil)
    }

    @Test func whereParameter() throws {
        let query = try decode("where=%7B%22score%22%3A%7B%22%24gt%22%3A1%7D%7D")
        #expect(query.condition == field("score", .greaterThan(1)))
        #expect(try decode("where=").condition == nil)
        #expect(try decode("where=%7B%7D").condition == nil)
        // JS (axios) sends spaces as '+'.
        #expect(try decode("where=%7B%22name%22%3A%22a+b%22%7D").condition == field("name", .equalTo("a b")))
    }

    @Test func orderParameter() throws {
        #expect(
            try decode("order=-score,name").order == [
                OrderKey(path: "score", descending: true), OrderKey(path: "name"),
            ])
        #expect(
            try decode("order=-score,%20name%20,,+createdAt").order == [
                OrderKey(path: "score", descending: true), OrderKey(path: "name"), OrderKey(path: "createdAt"),
            ])
        #expect(try decode("order=score%20desc").order == [OrderKey(path: "score", descending: true)])
        #expect(try decode("order=-_sumscore1").order == [OrderKey(path: "_sumscore1", descending: true)])
        #expect(errorCode("order=-1a") == .invalidQuery)
    }

    @Test func limitParameter() throws {
        #expect(try decode("limit=10").limit == 10)
        #expect(try decode("limit=500").limit == 500)
        #expect(try decode("limit=1001").limit == 1000)
        #expect(try decode("limit=99999999999999999999999").limit == 1000)
        #expect(try decode("limit=").limit == 100)
        #expect(try decode("limit=0").limit == 0)
        #expect(errorCode("limit=-1") == .invalidQuery)
        #expect(errorCode("limit=ten") == .invalidQuery)
        #expect(errorCode("limit=1.5") == .invalidQuery)
    }

    @Test func countWithLimitZeroKeepsZero() throws {
        let query = try decode("limit=0&count=1")
        #expect(query.limit == 0)
        #expect(query.count)
        #expect(try decode("count=true").count)
        #expect(try !decode("count=0").count)
        #expect(errorCode("count=yes") == .invalidQuery)
    }

    @Test func skipParameter() throws {
        #expect(try decode("skip=20").skip == 20)
        #expect(errorCode("skip=-5") == .invalidQuery)
        #expect(errorCode("skip=x") == .invalidQuery)
    }

    @Test func keysAndInclude() throws {
        let query = try decode(
            "keys=name,%20score,address.city&include=post.author,post%5Blikes%5D.author%5Busername%7Cemail%5D")
        #expect(query.keys == ["name", "score", "address.city"])
        #expect(query.include == ["post.author", "post[likes].author[username|email]"])
        #expect(try decode("keys=").keys == nil)
        #expect(errorCode("keys=a,1b") == .invalidQuery)
        #expect(errorCode("include=post%5Blikes") == .invalidQuery)
        #expect(errorCode("include=post..author") == .invalidQuery)
    }

    @Test func aggregationParameters() throws {
        let query = try decode(
            "groupby=name,%20level&groupcount=true&sum=score,%20%20bonus&average=score&max=a&min=b&order=-_sumScore")
        #expect(
            query.aggregation
                == Aggregation(
                    groupBy: ["name", "level"], groupCount: true, sum: ["score", "bonus"], average: ["score"],
                    max: ["a"],
                    min: ["b"]))
        #expect(query.order == [OrderKey(path: "_sumScore", descending: true)])
        #expect(try decode("groupby=name").aggregation == Aggregation(groupBy: ["name"]))
        #expect(errorCode("sum=a%20b") == .invalidQuery)
        #expect(errorCode("groupcount=maybe") == .invalidQuery)
    }

    @Test func havingAsJSONAndAsPythonRepr() throws {
        let json = try decode("sum=score&having=%7B%22_sumScore%22%3A%7B%22%24gt%22%3A1%7D%7D")
        #expect(json.aggregation?.having == field("_sumScore", .greaterThan(1)))
        // PY1 sends str(dict), percent-escaped.
        let python = try decode("sum=score&having=%7B'_sumScore'%3A%20%7B'%24gt'%3A%201%7D%2C%20'ok'%3A%20True%7D")
        #expect(
            python.aggregation?.having
                == .and([field("_sumScore", .greaterThan(1)), field("ok", .equalTo(true))]))
        #expect(errorCode("having=%7Bnot%20json") == .invalidQuery)
    }

    @Test func lastRepeatedParameterWinsAndUnknownOnesAreIgnored() throws {
        let query = try decode("limit=5&limit=7&_=123&sessionToken=x")
        #expect(query.limit == 7)
    }

    @Test func classNames() throws {
        #expect(try decode("", className: "_User").className == "_User")
        #expect(errorCode("", className: "_Secret") == .invalidClassName)
        #expect(errorCode("", className: "1abc") == .invalidClassName)
    }

    @Test func errorsInWhereKeepTheirCodes() {
        #expect(errorCode("where=%7B%22%24bad%22%3A1%7D") == .invalidQuery)
        #expect(errorCode("where=%7Bbad") == .invalidQuery)
        let outOfRange = #"{"g":{"$nearSphere":{"__type":"GeoPoint","latitude":99,"longitude":0}}}"#
        #expect(
            queryError {
                try FindQueryDecoder.decode(className: "A", parameters: [("where", outOfRange)])
            }?.code == .invalidGeoPoint)
    }

    // MARK: - Native data objects

    @Test func nativeDataObject() throws {
        let data = try JSONParser.parse(
            #"{"where":{"score":{"$gt":1}},"limit":10,"skip":5,"order":"-a,b","keys":"a,b","include":"p","count":true,"#
                + #""groupby":"g","groupcount":true,"sum":"s","average":["x","y"],"max":"m","min":"n","having":{"_sumS":{"$gt":2}}}"#
        )
        let query = try FindQueryDecoder.decode(className: "GameScore", json: data)
        #expect(
            query
                == FindQuery(
                    className: "GameScore", condition: field("score", .greaterThan(1)),
                    order: [OrderKey(path: "a", descending: true), OrderKey(path: "b")], limit: 10, skip: 5,
                    keys: ["a", "b"], include: ["p"], count: true,
                    aggregation: Aggregation(
                        groupBy: ["g"], groupCount: true, sum: ["s"], average: ["x", "y"], max: ["m"], min: ["n"],
                        having: field("_sumS", .greaterThan(2)))))
    }

    @Test func nativeDataVariants() throws {
        #expect(try FindQueryDecoder.decode(className: "A", json: .null) == FindQuery(className: "A"))
        #expect(try FindQueryDecoder.decode(className: "A", json: [:]) == FindQuery(className: "A"))
        let strings = try FindQueryDecoder.decode(
            className: "A", json: ["where": #"{"a":1}"#, "limit": "3", "count": 1, "order": "score desc"])
        #expect(strings.condition == field("a", .equalTo(1)))
        #expect(strings.limit == 3)
        #expect(strings.count)
        #expect(strings.order == [OrderKey(path: "score", descending: true)])
        #expect(try FindQueryDecoder.decode(className: "A", json: ["limit": 5000]).limit == 1000)
        #expect(try FindQueryDecoder.decode(className: "A", json: ["limit": 0, "count": true]).limit == 0)
        #expect(
            try FindQueryDecoder.decode(className: "A", json: ["having": "{'_count': {'$gt': 1}}"]).aggregation?.having
                == field("_count", .greaterThan(1)))
    }

    @Test(arguments: [
        JSONValue.array([]), ["limit": -1], ["limit": 1.5], ["limit": true], ["skip": -2], ["count": "x"],
        ["keys": 5], ["order": [1]], ["where": 3], ["where": ["$x": 1]], ["having": 1], ["groupcount": 2],
    ])
    func nativeDataErrors(json: JSONValue) {
        #expect(queryError { try FindQueryDecoder.decode(className: "A", json: json) }?.code == .invalidQuery)
    }
}
