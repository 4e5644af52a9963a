import BmobStore
import BmobTesting
import BmobWire
import Testing

@Suite("StoredObject documents", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct StoredObjectTests {
    static let objects: [StoredObject] = [
        StoredObject(className: "Post", objectId: "a1b2c3d4e5", createdAt: 1, updatedAt: 2),
        StoredObject(
            className: "Post", objectId: "0000000001", createdAt: 1_700_000_000_123, updatedAt: 1_700_000_000_456,
            fields: ["title": "héllo \"quoted\"\n", "score": .int(-7), "tags": ["a", "b"], "nested": ["x": .double(1.5)]]),
        StoredObject(
            className: "Post", objectId: "ffffffffff", createdAt: 5, updatedAt: 5,
            acl: ["*": ["read": true], "u1": ["write": true]], fields: ["n": .null]),
        StoredObject(className: "Post", objectId: "q\"uote", createdAt: 0, updatedAt: 0, acl: ["*": ["read": true]]),
    ]

    @Test("the journal text built around the fields' text reads back as the object's document", arguments: objects)
    func jsonTextMatchesDocument(object: StoredObject) throws {
        let text = object.jsonBytes(fieldsJSON: JSONValue.object(object.fields).jsonBytes)
        #expect(try JSONParser.parse(text) == object.json)
        #expect(StoredObject(className: object.className, json: try JSONParser.parse(text)) == object)
    }

    @Test("fields text that is not an object falls back to the full encoding")
    func jsonTextFallsBack() throws {
        let object = Self.objects[1]
        #expect(try JSONParser.parse(object.jsonBytes(fieldsJSON: [])) == object.json)
        #expect(try JSONParser.parse(object.jsonBytes(fieldsJSON: Array("[1]".utf8))) == object.json)
    }
}
