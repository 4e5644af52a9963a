import BmobServer
import BmobTesting
import BmobWire
import Testing

@Suite struct SchemaRoutesTests {
    @Test func schemasNeedTheMasterKey() async throws {
        try await withTestServer { server in
            let response = try await server.call("GET", "/1/schemas")
            #expect(response.status == 401)
            #expect(response.json == ["code": 401, "error": "unauthorized"])
        }
    }

    @Test func schemasListRecordedTypes() async throws {
        try await withTestServer { server in
            _ = try await server.create("Game", [
                "score": 1, "name": "x", "owner": ["__type": "Pointer", "className": "_User", "objectId": "u1"],
            ])
            let response = try await server.call("GET", "/1/schemas/Game", master: true)
            #expect(response.status == 200)
            let fields = try #require(response.json?["fields"])
            #expect(fields["score"] == ["type": "Number"])
            #expect(fields["name"] == ["type": "String"])
            #expect(fields["owner"] == ["type": "Pointer", "targetClass": "_User"])
            #expect(fields["objectId"] == ["type": "String"])
            #expect(fields["createdAt"] == ["type": "Date"])
            let all = try await server.call("GET", "/1/schemas", master: true)
            #expect(all.json?["results"]?.arrayValue?.compactMap { $0["className"]?.stringValue }.contains("Game") == true)
        }
    }

    @Test func createAddFieldsAndDeclareIndexes() async throws {
        try await withTestServer { server in
            let created = try await server.call("POST", "/1/schemas/Shop", json: [
                "className": "Shop", "fields": ["title": ["type": "String"], "price": ["type": "Number"]],
                "indexes": [["price"]],
            ], master: true)
            #expect(created.status == 200, "\(created.text)")
            #expect(created.json?["fields"]?["price"] == ["type": "Number"])
            #expect(created.json?["indexes"] == [["price"]])
            let again = try await server.call("POST", "/1/schemas/Shop", json: ["fields": [:]], master: true)
            #expect(again.json?["code"] == 103)
            let changed = try await server.call("PUT", "/1/schemas/Shop", json: ["fields": ["stock": ["type": "Number"]], "indexes": [["fields": ["title"], "unique": true]]], master: true)
            #expect(changed.json?["fields"]?["stock"] == ["type": "Number"])
            // A unique index is listed in the shape a change sends it, so the listing can be sent back as it is.
            #expect(changed.json?["indexes"] == [["price"], ["fields": ["title"], "unique": true]])
            for bad: JSONValue in [["fields": ["title"], "unique": "yes"], ["fields": []], [1], ["unique": true]] {
                let refused = try await server.call("PUT", "/1/schemas/Shop", json: ["indexes": [bad]], master: true)
                #expect(refused.json?["code"] == 107, "\(bad): \(refused.text)")
            }
            // Declared types are enforced on writes.
            let wrong = try await server.call("POST", "/1/classes/Shop", json: ["price": "cheap"])
            #expect(wrong.json?["code"] == 111)
            // The unique index refuses duplicates with Bmob's 401.
            _ = try await server.create("Shop", ["title": "a", "price": 1])
            let duplicate = try await server.call("POST", "/1/classes/Shop", json: ["title": "a", "price": 2])
            #expect(duplicate.status == 400)
            #expect(duplicate.json?["code"] == 401)
            let query = try await server.call("GET", "/1/classes/Shop?where=\(queryEncoded(#"{"price":{"$gt":0}}"#))&order=price&limit=20")
            #expect(query.json?["results"]?.arrayValue?.count == 1)
        }
    }

    @Test func deletingAFieldRemovesItFromTheSchemaAndEveryObject() async throws {
        try await withTestServer { server in
            let first = try await server.create("Card", ["title": "a", "color": "red"])
            let second = try await server.create("Card", ["title": "b"])
            let response = try await server.call("PUT", "/1/schemas/Card", json: ["fields": ["color": ["type": "String", "__op": "Delete"]]], master: true)
            #expect(response.status == 200)
            #expect(response.json?["fields"]?["color"] == nil)
            let card = try await server.call("GET", "/1/classes/Card/\(first)")
            #expect(card.json?["color"] == nil)
            #expect(card.json?["title"] == "a")
            #expect(try await server.call("GET", "/1/classes/Card/\(second)").json?["title"] == "b")
            // The name is free again, for any type.
            #expect(try await server.call("PUT", "/1/classes/Card/\(second)", json: ["color": 7]).status == 200)
        }
    }

    @Test func invalidSchemaBodies() async throws {
        try await withTestServer { server in
            let badType = try await server.call("POST", "/1/schemas/X", json: ["fields": ["a": ["type": "Blob"]]], master: true)
            #expect(badType.json?["code"] == 107)
            let badName = try await server.call("POST", "/1/schemas/X", json: ["fields": ["1a": ["type": "String"]]], master: true)
            #expect(badName.json?["code"] == 105)
            let noTarget = try await server.call("POST", "/1/schemas/X", json: ["fields": ["p": ["type": "Pointer"]]], master: true)
            #expect(noTarget.json?["code"] == 104)
            let missing = try await server.call("GET", "/1/schemas/Nope", master: true)
            #expect(missing.json?["code"] == 103)
            // A className that is not a string was ignored and the change made (found by schemathesis).
            for method in ["POST", "PUT"] {
                let notAString = try await server.call(
                    method, "/1/schemas/Y", json: ["className": [:], "fields": ["a": ["type": "String"]]], master: true)
                #expect(notAString.status == 400)
                #expect(notAString.json?["code"] == 107)
                let otherClass = try await server.call(method, "/1/schemas/Y", json: ["className": "Z"], master: true)
                #expect(otherClass.json?["code"] == 103)
            }
            let untouched = try await server.call("GET", "/1/schemas/Y", master: true)
            #expect(untouched.json?["code"] == 103)
        }
    }

    @Test func onlyEmptyClassesCanBeDropped() async throws {
        try await withTestServer { server in
            let objectId = try await server.create("Temp", ["a": 1])
            #expect(try await server.call("DELETE", "/1/schemas/Temp", master: true).json?["code"] == 103)
            _ = try await server.call("DELETE", "/1/classes/Temp/\(objectId)")
            #expect(try await server.call("DELETE", "/1/schemas/Temp", master: true).json == ["msg": "ok"])
            #expect(try await server.call("GET", "/1/schemas/Temp", master: true).json?["code"] == 103)
        }
    }
}
