import BmobServer
import BmobTesting
import BmobWire
import Testing

/// A get without `keys` or `include` answers the stored JSON text spliced with its system fields: the same
/// members as a get that parses the object (one with `include`), for every kind of value and with an ACL.
@Suite("REST get from stored JSON")
struct StoredJSONGetTests {
    @Test func theSplicedAnswerHasTheMembersOfTheParsedOne() async throws {
        try await withTestServer { server in
            let fields: JSONValue = [
                "text": "a \"quoted\" {brace} [bracket] \\ back\u{1F600}", "n": 1.5, "big": 9_007_199_254_740_993,
                "flag": false, "none": .null, "list": [1, "two", ["three": [3]]], "nested": ["a": ["b": ["c": []]]],
                "when": ["__type": "Date", "iso": "2026-01-02 03:04:05"], "ACL": ["*": ["read": true]],
            ]
            let id = try await server.create("Mixed", fields)
            let spliced = try await server.call("GET", "/1/classes/Mixed/\(id)")
            let parsed = try await server.call("GET", "/1/classes/Mixed/\(id)?include=nothing")
            #expect(spliced.status == 200)
            #expect(spliced.json != nil, "\(spliced.text)")
            #expect(spliced.json == parsed.json)
            #expect(spliced.json?["objectId"]?.stringValue == id)
            #expect(spliced.json?["ACL"] == ["*": ["read": true]])
            let created = spliced.json?["createdAt"]?.stringValue ?? ""
            #expect(created.utf8.count == 19 && spliced.json?["updatedAt"]?.stringValue == created)
        }
    }

    @Test func anObjectTheCallerMayNotReadIsNotFound() async throws {
        try await withTestServer { server in
            let id = try await server.create("Mixed", ["text": "secret", "ACL": [:]])
            let response = try await server.call("GET", "/1/classes/Mixed/\(id)")
            #expect(response.status == 404 || response.json?["code"] == 101, "\(response.status) \(response.text)")
            #expect(response.json?["code"] == 101)
            let missing = try await server.call("GET", "/1/classes/Mixed/\(String(repeating: "z", count: 5_000))")
            #expect(missing.json?["code"] == 101)
        }
    }

    @Test func storedTextIsCheckedForNestingOnlyOutsideStrings() {
        #expect(ObjectRenderer.nestingIsReadable(Array(#"{"a":"[[[[{{{{\"]]]"}"#.utf8)))
        let deep = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(ObjectRenderer.nestingIsReadable(Array(deep.utf8)))
        #expect(!ObjectRenderer.nestingIsReadable(Array(("[" + deep + "]").utf8)))
        let inString = "{\"s\":\"" + String(repeating: "[", count: 1_000) + "\"}"
        #expect(ObjectRenderer.nestingIsReadable(Array(inString.utf8)))
    }
}
