import BmobWire
import Testing

/// ``FindQueryEncoder`` output, and round trips through ``FindQueryDecoder``.
@Suite struct FindQueryEncoderTests {
    private static let full = FindQuery(
        className: "GameScore",
        // Keys in sorted order, as the decoder builds an `and` from one object.
        condition: .and([field("name", .containedIn(["a", "b"])), field("score", .greaterThan(1))]),
        order: [OrderKey(path: "score", descending: true), OrderKey(path: "name")], limit: 0, skip: 20,
        keys: ["name", "score"], include: ["post.author"], count: true,
        aggregation: Aggregation(
            groupBy: ["name"], groupCount: true, sum: ["score"], average: ["a", "b"], max: ["c"], min: ["d"],
            having: field("_sumScore", .greaterThan(100))))

    @Test func defaultsWriteNothing() {
        #expect(FindQueryEncoder.parameters(FindQuery(className: "A")).isEmpty)
        #expect(FindQueryEncoder.json(FindQuery(className: "A")) == [:])
    }

    @Test func parameters() {
        let pairs = FindQueryEncoder.parameters(Self.full).map { [$0.name, $0.value] }
        #expect(
            pairs == [
                ["where", #"{"name":{"$in":["a","b"]},"score":{"$gt":1}}"#], ["order", "-score,name"], ["limit", "0"],
                ["skip", "20"], ["keys", "name,score"], ["include", "post.author"], ["count", "1"],
                ["groupby", "name"],
                ["groupcount", "true"], ["sum", "score"], ["average", "a,b"], ["max", "c"], ["min", "d"],
                ["having", #"{"_sumScore":{"$gt":100}}"#],
            ])
    }

    @Test func nativeJSON() {
        #expect(
            FindQueryEncoder.json(Self.full).jsonString
                == #"{"average":"a,b","count":true,"groupby":"name","groupcount":true,"having":{"_sumScore":{"$gt":100}},"#
                + #""include":"post.author","keys":"name,score","limit":0,"max":"c","min":"d","order":"-score,name","#
                + #""skip":20,"sum":"score","where":{"name":{"$in":["a","b"]},"score":{"$gt":1}}}"#)
    }

    @Test(arguments: [
        full, FindQuery(className: "_User"), FindQuery(className: "A", limit: 1000, aggregation: Aggregation()),
        FindQuery(className: "A", condition: .or([field("a", .exists(false))]), keys: ["a.b"], include: ["p", "q"]),
    ])
    func roundTrips(query: FindQuery) throws {
        let parameters = FindQueryEncoder.parameters(query)
        #expect(try FindQueryDecoder.decode(className: query.className, parameters: parameters) == query)
        #expect(try FindQueryDecoder.decode(className: query.className, json: FindQueryEncoder.json(query)) == query)
        // Through a real query string as the SDK will build it.
        let text = parameters.map { "\(percentEncode($0.name))=\(percentEncode($0.value))" }.joined(separator: "&")
        #expect(try FindQueryDecoder.decode(className: query.className, parameters: QueryString.parse(text)) == query)
    }

    private func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                result.append(Character(UnicodeScalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
