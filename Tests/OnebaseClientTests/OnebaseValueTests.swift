import BmobWire
import Foundation
import OnebaseClient
import Testing

/// `OnebaseValue` as seed 004 describes it: literals, accessors, key paths, Codable in and out, whole numbers as
/// `.int`.
@Suite("OnebaseValue")
struct OnebaseValueTests {
    private struct Note: Codable, Equatable {
        var text: String
        var count: Int
        var tags: [String]
        var score: Double?
    }

    @Test("literals and the seed's reads: value?.array, value?[\"user\", \"name\"]?.string, .int")
    func literalsAndReads() {
        let value: OnebaseValue? = [
            "text": "Hello", "count": 3, "ratio": 0.5, "done": false, "user": ["name": "Ann"], "tags": ["a", nil],
        ]
        #expect(value?["text"]?.string == "Hello")
        #expect(value?["count"]?.int == 3 && value?["count"]?.double == 3)
        #expect(value?["ratio"]?.double == 0.5 && value?["ratio"]?.int == nil)
        #expect(value?["done"]?.bool == false)
        #expect(value?["user", "name"]?.string == "Ann")
        #expect(value?["user", "missing"] == nil && value?["text", "deeper"] == nil)
        #expect(value?["tags"]?.array?.count == 2 && value?["tags"]?[1]?.isNull == true && value?["tags"]?[2] == nil)
        #expect(value?.array == nil && value?.object?.count == 6)
        let whole: OnebaseValue = 3.0
        #expect(whole == .int(3))
        #expect(OnebaseValue.int(3) != .double(3.5))
    }

    @Test("Codable: whole numbers decode as .int, fractions as .double; a Codable type goes in and comes out")
    func codable() throws {
        let decoded = try JSONDecoder().decode(
            OnebaseValue.self, from: Data(#"{"a":1,"b":2.0,"c":2.5,"d":[true,null,"x"],"e":1e300}"#.utf8))
        #expect(decoded["a"] == .int(1) && decoded["b"] == .int(2) && decoded["c"] == .double(2.5))
        #expect(decoded["d"] == [true, nil, "x"])
        #expect(decoded["e"]?.double == 1e300)
        let encoded = try JSONEncoder().encode(decoded)
        #expect(try JSONDecoder().decode(OnebaseValue.self, from: encoded) == decoded)
        let note = Note(text: "Hello", count: 3, tags: ["x"], score: nil)
        let value = try OnebaseValue(note)
        #expect(value["text"] == "Hello" && value["count"] == .int(3) && value["tags"] == ["x"])
        #expect(try value.decode(Note.self) == note)
        #expect(throws: DecodingError.self) { try OnebaseValue.string("x").decode(Note.self) }
    }

    @Test("the wire bridge keeps every value, and makes integral doubles integers")
    func wireBridge() {
        let value: OnebaseValue = ["a": [1, 2.5, "s", nil, true], "b": ["c": -7]]
        #expect(OnebaseValue(json: value.json) == value)
        #expect(OnebaseValue(json: .double(4)) == .int(4))
        #expect(OnebaseValue(json: .double(.infinity)) == .double(.infinity))
    }
}
