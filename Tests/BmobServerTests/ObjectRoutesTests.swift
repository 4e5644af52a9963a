import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// `/1/classes` writes and reads through HTTP on loopback against real SQLite.
@Suite struct ObjectRoutesTests {
    @Test func createAnswers201WithLocationAndTheObjectReadsBack() async throws {
        try await withTestServer(clock: .fixed(1_437_531_770_000)) { server in
            let response = try await server.call("POST", "/1/classes/GameScore", json: ["score": 1337, "playerName": "Sean Plott", "cheatMode": false])
            #expect(response.status == 201)
            let objectId = try #require(response.json?["objectId"]?.stringValue)
            #expect(objectId.count == 10)
            #expect(objectId.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(response.json?["createdAt"] == "2015-07-22 02:22:50")
            #expect(response.headers["Location"]?.hasSuffix("/1/classes/GameScore/\(objectId)") == true)

            let fetched = try await server.call("GET", "/1/classes/GameScore/\(objectId)")
            #expect(fetched.status == 200)
            #expect(fetched.json == [
                "score": 1337, "playerName": "Sean Plott", "cheatMode": false, "objectId": .string(objectId),
                "createdAt": "2015-07-22 02:22:50", "updatedAt": "2015-07-22 02:22:50",
            ])
        }
    }

    @Test func jsClientsCreateWithATrailingSlash() async throws {
        try await withTestServer { server in
            let response = try await server.call("POST", "/1/classes/Note/", json: ["title": "x"])
            #expect(response.status == 201)
        }
    }

    @Test func typedValuesAreNormalisedAndKept() async throws {
        try await withTestServer { server in
            let fields: JSONValue = [
                "when": ["__type": "Date", "iso": "2024-01-01T10:00:00+08:00"],
                "author": ["__type": "Pointer", "className": "_User", "objectId": "abc123"],
                "place": ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4],
                "photo": ["__type": "File", "filename": "a.jpg", "url": "http://x/a.jpg", "cdn": "upyun"],
                "tags": ["a", "b"],
                "meta": ["views": 1, "nested": ["__type": "Date", "iso": "2024-01-01 00:00:00"]],
            ]
            let objectId = try await server.create("Post", fields)
            let fetched = try #require(try await server.call("GET", "/1/classes/Post/\(objectId)").json)
            #expect(fetched["when"] == ["__type": "Date", "iso": "2024-01-01 02:00:00"])
            #expect(fetched["author"] == ["__type": "Pointer", "className": "_User", "objectId": "abc123"])
            #expect(fetched["place"] == ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4])
            #expect(fetched["photo"] == ["__type": "File", "filename": "a.jpg", "url": "http://x/a.jpg", "group": "upyun"])
            #expect(fetched["tags"] == ["a", "b"])
            #expect(fetched["meta"]?["nested"] == ["__type": "Date", "iso": "2024-01-01 00:00:00"])
        }
    }

    @Test func updateOperators() async throws {
        try await withTestServer { server in
            let objectId = try await server.create("Game", ["score": 10, "tags": ["a"], "gone": 1, "ratio": 1.5])
            let response = try await server.call("PUT", "/1/classes/Game/\(objectId)", json: [
                "score": ["__op": "Increment", "amount": -3],
                "ratio": ["__op": "Increment", "amount": 1],
                "tags": ["__op": "AddUnique", "objects": ["a", "b", "b"]],
                "gone": ["__op": "Delete"],
                "fresh": ["__op": "Add", "objects": [1, 2]],
                "counter": ["__op": "Increment", "amount": 5],
            ])
            #expect(response.status == 200)
            #expect(response.json?["updatedAt"]?.stringValue != nil)
            let fetched = try #require(try await server.call("GET", "/1/classes/Game/\(objectId)").json)
            #expect(fetched["score"] == 7)
            #expect(fetched["ratio"] == 2.5)
            #expect(fetched["tags"] == ["a", "b"])
            #expect(fetched["gone"] == nil)
            #expect(fetched["fresh"] == [1, 2])
            #expect(fetched["counter"] == 5)
            _ = try await server.call("PUT", "/1/classes/Game/\(objectId)", json: ["tags": ["__op": "Remove", "objects": ["a"]]])
            #expect(try await server.call("GET", "/1/classes/Game/\(objectId)").json?["tags"] == ["b"])
        }
    }

    @Test func dotPathsReachIntoObjectsAndArrayElements() async throws {
        try await withTestServer { server in
            let objectId = try await server.create("Person", [
                "userAttibute": ["gender": "男", "age": 20],
                "projectExperiences": [["name": "old"], ["name": "other"]],
            ])
            let response = try await server.call("PUT", "/1/classes/Person/\(objectId)", json: [
                "userAttibute.gender": "女",
                "projectExperiences.0.name": "x",
                "userAttibute.age": ["__op": "Increment", "amount": 1],
            ])
            #expect(response.status == 200)
            let fetched = try #require(try await server.call("GET", "/1/classes/Person/\(objectId)").json)
            #expect(fetched["userAttibute"] == ["gender": "女", "age": 21])
            #expect(fetched["projectExperiences"] == [["name": "x"], ["name": "other"]])
        }
    }

    @Test func typeMismatchIs111WithBmobsMessage() async throws {
        try await withTestServer { server in
            _ = try await server.create("Typed", ["score": 1])
            let response = try await server.call("POST", "/1/classes/Typed", json: ["score": "high"])
            #expect(response.status == 400)
            #expect(response.json == ["code": 111, "error": "invalid type for key 'score', expected 'Number', but got 'String'"])
            let objectId = try await server.create("Typed", ["name": "x"])
            let increment = try await server.call("PUT", "/1/classes/Typed/\(objectId)", json: ["name": ["__op": "Increment", "amount": 1]])
            #expect(increment.json?["code"] == 111)
        }
    }

    static let invalidWrites: [(String, JSONValue, Int64)] = [
        ("/1/classes/Bad-Name", JSONValue.object(["a": 1]), 103),
        ("/1/classes/1abc", ["a": 1], 103),
        ("/1/classes/Ok", ["_hidden": 1], 105),
        ("/1/classes/Ok", ["bad key": 1], 105),
        ("/1/classes/Ok", ["$where": 1], 105),
        ("/1/classes/Ok", ["when": ["__type": "Date", "iso": "yesterday"]], 107),
        ("/1/classes/Ok", ["p": ["__type": "Pointer", "className": "bad class", "objectId": "x"]], 106),
        ("/1/classes/Ok", ["g": ["__type": "GeoPoint", "latitude": 91, "longitude": 0]], 117),
        ("/1/classes/Ok", ["x": ["__op": "Frobnicate"]], 107),
        ("/1/classes/Ok", ["ACL": ["*": ["read": "yes"]]], 107),
        // `_User` through /1/classes is a signup, with a signup's rules; `_Session` and `_Installation` are
        // not written here.
        ("/1/classes/_User", ["username": "x"], 108),
        ("/1/classes/_Session", ["user": "x"], 103),
        ("/1/classes/_Installation", ["deviceType": "ios"], 103),
    ]

    @Test(arguments: invalidWrites)
    func invalidWritesGetBmobCodes(path: String, body: JSONValue, code: Int64) async throws {
        try await withTestServer { server in
            let response = try await server.call("POST", path, json: body)
            #expect(response.status == 400)
            #expect(response.json?["code"]?.int64Value == code)
            #expect(response.json?["error"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func malformedBodiesAre107() async throws {
        try await withTestServer { server in
            for body in ["{", "[1,2]", "\"text\"", "{\"a\":}"] {
                let response = try await server.request(
                    "POST", "/1/classes/Note", headers: server.appHeaders + [("Content-Type", "application/json")], body: Array(body.utf8))
                #expect(response.status == 400)
                #expect(response.json?["code"] == 107)
            }
        }
    }

    @Test func missingObjectsAre101() async throws {
        try await withTestServer { server in
            _ = try await server.create("Note", ["a": 1])
            for (method, body) in [("GET", nil), ("PUT", JSONValue.object(["a": 2])), ("DELETE", nil)] as [(String, JSONValue?)] {
                let response = try await server.call(method, "/1/classes/Note/nope000000", json: body)
                #expect(response.status == 400)
                #expect(response.json == ["code": 101, "error": "object not found for nope000000."])
            }
        }
    }

    @Test func deleteRemovesTheObject() async throws {
        try await withTestServer { server in
            let objectId = try await server.create("Note", ["a": 1])
            let response = try await server.call("DELETE", "/1/classes/Note/\(objectId)", headers: [("Content-Type", "application/json")])
            #expect(response.json == ["msg": "ok"])
            #expect(try await server.call("GET", "/1/classes/Note/\(objectId)").json?["code"] == 101)
        }
    }

    @Test func aclIsStoredAndReturned() async throws {
        try await withTestServer { server in
            let objectId = try await server.create("Secret", ["ACL": ["*": ["read": true, "write": false], "user1": ["write": true]], "a": 1])
            let fetched = try await server.call("GET", "/1/classes/Secret/\(objectId)")
            #expect(fetched.json?["ACL"] == ["*": ["read": true], "user1": ["write": true]])
        }
    }

    @Test func includeExpandsPointersAndKeysSelectFields() async throws {
        try await withTestServer { server in
            let authorId = try await server.create("Author", ["name": "Lu Xun", "age": 55])
            let postId = try await server.create("Post", [
                "title": "t", "body": "b", "author": ["__type": "Pointer", "className": "Author", "objectId": .string(authorId)],
            ])
            let fetched = try #require(try await server.call("GET", "/1/classes/Post/\(postId)?include=author&keys=title,author").json)
            #expect(fetched["body"] == nil)
            #expect(fetched["title"] == "t")
            #expect(fetched["author"]?["__type"] == "Object")
            #expect(fetched["author"]?["className"] == "Author")
            #expect(fetched["author"]?["name"] == "Lu Xun")
            #expect(fetched["objectId"]?.stringValue == postId)
        }
    }

    @Test func includeBracketsSelectFieldsOfNestedObjects() async throws {
        try await withTestServer { server in
            let authorId = try await server.create("Author", ["username": "lx", "email": "lx@example.com", "secret": "s"])
            let postId = try await server.create("Post", [
                "title": "t", "likes": 3, "author": ["__type": "Pointer", "className": "Author", "objectId": .string(authorId)],
            ])
            let commentId = try await server.create("Comment", [
                "text": "hi", "post": ["__type": "Pointer", "className": "Post", "objectId": .string(postId)],
            ])
            let response = try await server.call("GET", "/1/classes/Comment/\(commentId)?include=\(queryEncoded("post[likes].author[username|email]"))")
            let post = try #require(response.json?["post"])
            #expect(post["likes"] == 3)
            #expect(post["title"] == nil)
            #expect(post["author"]?["username"] == "lx")
            #expect(post["author"]?["email"] == "lx@example.com")
            #expect(post["author"]?["secret"] == nil)
        }
    }

    @Test func writesAreJournaledWithTheirCaller() async throws {
        try await withTestServer { server in
            let (userId, token) = try await server.signUpUser("logger", password: "pw")
            let objectId = try await server.create("Logged", ["a": 1])
            _ = try await server.call("PUT", "/1/classes/Logged/\(objectId)", json: ["a": 2], master: true)
            _ = try await server.call(
                "DELETE", "/1/classes/Logged/\(objectId)", headers: [("X-Bmob-Session-Token", token)])
            let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            let entries = try await runtime.store.journal(after: 0, limit: 20)
                .filter { $0.op != .schema && $0.className == "Logged" }
            #expect(entries.map(\.op.rawValue) == ["create", "update", "delete"])
            // The resolved caller (none for an anonymous one), and the door beside it.
            #expect(entries.map(\.caller) == [nil, "master", userId])
            #expect(entries.map(\.door) == ["rest", "rest", "rest"])
            #expect(entries[1].before?["a"] == 1)
            #expect(entries[1].after?["a"] == 2)
        }
    }

    @Test func batchRunsInOrderWithPerItemResults() async throws {
        try await withTestServer { server in
            let existing = try await server.create("Batch", ["n": 0])
            let response = try await server.call("POST", "/1/batch", json: [
                "requests": [
                    ["method": "post", "path": "/1/classes/Batch", "body": ["n": 1]],
                    ["method": "PUT", "path": .string("/1/classes/Batch/\(existing)"), "body": ["n": 5]],
                    ["method": "DELETE", "path": "/1/classes/Batch/nope000000"],
                    ["method": "delete", "path": .string("/1/classes/Batch/\(existing)")],
                ],
            ])
            #expect(response.status == 200)
            let results = try #require(response.json?.arrayValue)
            #expect(results.count == 4)
            #expect(results[0]["success"]?["objectId"]?.stringValue != nil)
            #expect(results[1]["success"]?["updatedAt"]?.stringValue != nil)
            #expect(results[2] == ["error": ["code": 101, "error": "object not found for nope000000."]])
            #expect(results[3] == ["success": ["msg": "ok"]])
        }
    }

    @Test func batchLimitsAndShapes() async throws {
        try await withTestServer { server in
            let many = JSONValue.array(Array(repeating: ["method": "POST", "path": "/1/classes/B", "body": [:]], count: 51))
            let tooMany = try await server.call("POST", "/1/batch", json: ["requests": many])
            let notArray = try await server.call("POST", "/1/batch", json: ["requests": "no"])
            let malformed = try await server.call("POST", "/1/batch", json: ["requests": [["path": "/1/classes/B"]]])
            #expect(tooMany.json?["code"] == 114)
            #expect(notArray.json?["code"] == 112)
            #expect(malformed.json?["code"] == 113)
        }
    }
}
