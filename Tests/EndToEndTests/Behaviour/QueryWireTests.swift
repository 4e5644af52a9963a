import BmobSDK
import BmobWire
import Foundation
import Testing

@testable import BmobData

/// What ``BmobQuery`` sends: BmobWire's ``FindQuery`` encoded by ``FindQueryEncoder``, with the keys the SDK
/// has always sent (and Bmob's cloud reads), and decoded by the server's ``FindQueryDecoder`` into the same
/// query. The end-to-end suites then run these queries against the server.
@Suite("BmobQuery's wire form")
struct QueryWireTests {
    /// A query, how to run it, and the `data` it must send, as JSON text.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var query: BmobQuery
        var count = false
        var statistics = false
        var expected: String
        var testDescription: String { name }
    }

    static let radians = 100 / WhereParser.earthRadiusKilometers
    static let geo = #"{"__type":"GeoPoint","latitude":39.9,"longitude":116.4}"#

    static let cases: [Case] = [
        Case(
            name: "comparisons, order, paging",
            query: BmobQuery(className: "Note").whereKey("status", equalTo: 1).whereKey("score", greaterThan: 80)
                .whereKey("priority", lessThanOrEqualTo: 3).whereKey("title", notEqualTo: "草稿")
                .whereKey("n", lessThan: 5).whereKey("m", greaterThanOrEqualTo: 2.5)
                .order(byDescending: "createdAt").addAscendingOrder("title").limit(20).skip(5),
            expected: #"{"limit":20,"order":"-createdAt,title","skip":5,"where":{"m":{"$gte":2.5},"n":{"$lt":5},"#
                + #""priority":{"$lte":3},"score":{"$gt":80},"status":1,"title":{"$ne":"草稿"}}}"#),
        Case(
            name: "an equality joined by an operator becomes $eq; a repeated operator replaces the earlier one",
            query: BmobQuery(className: "A").whereKey("a", equalTo: 5).whereKey("a", lessThan: 9)
                .whereKey("b", lessThan: 9).whereKey("b", lessThan: 7)
                .whereKey("c", equalTo: 1).whereKey("c", equalTo: 2),
            expected: #"{"where":{"a":{"$eq":5,"$lt":9},"b":{"$lt":7},"c":2}}"#),
        Case(
            name: "an object value is equality, never operators",
            query: BmobQuery(className: "A").whereKey("a", equalTo: ["$gt": 1]).whereKey("p", equalTo: ["x": 1]),
            expected: #"{"where":{"a":{"$eq":{"$gt":1}},"p":{"x":1}}}"#),
        Case(
            name: "pointers and dates as values",
            query: BmobQuery(className: "Note")
                .whereKey("author", equalTo: BmobPointer(className: "_User", objectId: "user123"))
                .whereKey("at", lessThan: Date(timeIntervalSince1970: 0)),
            expected: #"{"where":{"at":{"$lt":{"__type":"Date","iso":"1970-01-01 00:00:00"}},"#
                + #""author":{"__type":"Pointer","className":"_User","objectId":"user123"}}}"#),
        Case(
            name: "lists, existence, regular expressions",
            query: BmobQuery(className: "A").whereKey("tags", containedIn: ["Swift", "iOS"])
                .whereKey("n", notContainedIn: [1, 2]).whereKey("all", containsAll: ["x", "y"])
                .whereKeyExists("publishedAt").whereKeyDoesNotExist("deletedAt")
                .whereKey("title", matchesRegex: ".*入门.*").whereKey("name", startsWith: "a.b")
                .whereKey("email", endsWith: "@example.com"),
            expected: #"{"where":{"all":{"$all":["x","y"]},"deletedAt":{"$exists":false},"#
                + #""email":{"$regex":"@example\\.com$"},"n":{"$nin":[1,2]},"name":{"$regex":"^a\\.b"},"#
                + #""publishedAt":{"$exists":true},"tags":{"$in":["Swift","iOS"]},"title":{"$regex":".*入门.*"}}}"#),
        Case(
            name: "geo points: near with a distance in radians, near alone, a box",
            query: BmobQuery(className: "Place")
                .whereKey(
                    "location", nearGeoPoint: BmobGeoPoint(latitude: 39.9, longitude: 116.4), withinKilometers: 100
                )
                .whereKey("home", nearGeoPoint: BmobGeoPoint(latitude: 39.9, longitude: 116.4))
                .whereKey(
                    "area", withinGeoBox: BmobGeoPoint(latitude: 39.9, longitude: 116.4),
                    northeast: BmobGeoPoint(latitude: 40.5, longitude: 117.5)),
            expected: #"{"where":{"area":{"$within":{"$box":["# + geo
                + #",{"__type":"GeoPoint","latitude":40.5,"longitude":117.5}]}},"home":{"$nearSphere":"# + geo + #"},"#
                + #""location":{"$maxDistanceInRadians":\#(radians),"$nearSphere":"# + geo + "}}}"),
        Case(
            name: "sub-queries and $relatedTo",
            query: BmobQuery(className: "Entry")
                .whereKey("player", matchesQuery: BmobQuery(className: "Score").whereKey("group", equalTo: "high"))
                .whereKey("other", doesNotMatchQuery: BmobQuery(className: "Score"))
                .whereRelatedTo(BmobPointer(className: "Post", objectId: "p1"), key: "likes"),
            expected: #"{"where":{"$relatedTo":{"key":"likes","object":{"__type":"Pointer","className":"Post","#
                + #""objectId":"p1"}},"other":{"$notInQuery":{"className":"Score","where":{}}},"#
                + #""player":{"$inQuery":{"className":"Score","where":{"group":"high"}}}}}"#),
        Case(
            name: "or, an empty query matching everything",
            query: BmobQuery.or([
                BmobQuery(className: "Note").whereKey("type", equalTo: "work"),
                BmobQuery(className: "Note").whereKey("type", equalTo: "personal"),
                BmobQuery(className: "Note"),
            ])!,
            expected: #"{"where":{"$or":[{"type":"work"},{"type":"personal"},{}]}}"#),
        Case(
            name: "and of distinct keys",
            query: BmobQuery.and([
                BmobQuery(className: "Note").whereKey("status", equalTo: 1),
                BmobQuery(className: "Note").whereKey("priority", greaterThan: 2),
            ])!,
            expected: #"{"where":{"priority":{"$gt":2},"status":1}}"#),
        Case(
            name: "and of the same key, then another condition",
            query: BmobQuery.and([
                BmobQuery(className: "Note").whereKey("n", greaterThan: 1),
                BmobQuery(className: "Note").whereKey("n", lessThan: 5),
            ])!.whereKey("n", notEqualTo: 3),
            expected: #"{"where":{"$and":[{"n":{"$gt":1}},{"n":{"$lt":5}}],"n":{"$ne":3}}}"#),
        Case(
            name: "keys and includes",
            query: BmobQuery(className: "A").selectKeys(["name", "score"]).includeKey("post.author").includeKey("p"),
            expected: #"{"include":"post.author,p","keys":"name,score"}"#),
        Case(
            name: "count sends the condition only",
            query: BmobQuery(className: "A").whereKey("a", equalTo: 1).order(byAscending: "b").limit(4).skip(1)
                .selectKeys(["c"]).includeKey("d"),
            count: true, expected: #"{"count":true,"limit":0,"where":{"a":1}}"#),
        Case(
            name: "statistics with functions and having",
            query: BmobQuery(className: "Score").statistics().groupBy(["group"]).sum(["score"]).max(["score"])
                .having(["_sumScore": ["$gt": 100]]).order(byDescending: "_sumScore").selectKeys(["x"]),
            statistics: true,
            expected: #"{"groupby":"group","having":{"_sumScore":{"$gt":100}},"max":"score","order":"-_sumScore","#
                + #""sum":"score"}"#),
        Case(
            name: "statistics of the selected keys",
            query: BmobQuery(className: "Bill").selectKeys(["amount"]).groupBy(["category"]).statistics(),
            statistics: true,
            expected: #"{"average":"amount","groupby":"category","groupcount":true,"max":"amount","min":"amount","#
                + #""sum":"amount"}"#),
        Case(
            name: "statistics with no function counts the groups",
            query: BmobQuery(className: "Bill").groupBy(["category"]).groupCount(false), statistics: true,
            expected: #"{"groupby":"category","groupcount":true}"#),
        Case(name: "nothing set sends nothing", query: BmobQuery(className: "A"), expected: "{}"),
    ]

    @Test(arguments: cases)
    func sendsTheModelsEncoding(_ example: Case) throws {
        let request = try example.query.findData(count: example.count, statistics: example.statistics)
        #expect(request["c"] == .string(example.query.className))
        let data = try #require(request["data"])
        #expect(data == (try JSONParser.parse(example.expected)), "\(data.jsonString)")
    }

    @Test(arguments: cases)
    func theServerDecodesTheSameQuery(_ example: Case) throws {
        let sent = try example.query.findQuery(count: example.count, statistics: example.statistics)
        let data = FindQueryEncoder.json(sent)
        let decoded = try FindQueryDecoder.decode(className: example.query.className, json: data)
        #expect(QueryCondition.normalized(decoded.condition) == QueryCondition.normalized(sent.condition))
        var rest = decoded
        rest.condition = sent.condition
        if let having = sent.aggregation?.having {
            #expect(QueryCondition.normalized(rest.aggregation?.having) == QueryCondition.normalized(having))
            rest.aggregation?.having = having
        }
        #expect(rest == sent)
    }

    @Test("a value that cannot be sent, or an invalid having, fails the query before it is sent")
    func invalidConditions() {
        struct Opaque {}
        #expect(throws: BmobError.self) {
            _ = try BmobQuery(className: "A").whereKey("a", equalTo: Opaque())
                .findQuery(count: false, statistics: false)
        }
        #expect(throws: BmobError.self) {
            _ = try BmobQuery(className: "A").whereKey("a", containedIn: [1, Opaque()])
                .findData(count: true, statistics: false)
        }
        // A sub-query's error is the outer query's.
        let inner = BmobQuery(className: "B").whereKey("b", equalTo: Opaque())
        #expect(throws: BmobError.self) {
            _ = try BmobQuery(className: "A").whereKey("p", matchesQuery: inner)
                .findQuery(count: false, statistics: false)
        }
        #expect {
            _ = try BmobQuery(className: "A").groupBy(["g"]).having(["_sumScore": ["$bogus": 1]])
                .findQuery(count: false, statistics: true)
        } throws: { error in
            guard case .invalidParameter(let reason)? = error as? BmobError else { return false }
            return reason.hasPrefix("having")
        }
    }
}
