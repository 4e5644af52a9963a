import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The native `/8/` data routes through HTTP on loopback: the same services and answers as REST, in the
/// envelope's `data`.
@Suite struct NativeDataRoutesTests {
    @Test func createFindUpdateDelete() async throws {
        try await withTestServer(clock: .fixed(1_437_531_770_000)) { server in
            let client = NativeTestClient(server)
            let created = try await client.data(
                "create", ["c": "GameScore", "data": ["score": 1337, "playerName": "Sean Plott"]])
            let objectId = try #require(created["objectId"]?.stringValue)
            #expect(created == ["objectId": .string(objectId), "createdAt": "2015-07-22 02:22:50"])

            let found = try await client.data("find", ["c": "GameScore", "objectId": .string(objectId), "data": nil])
            let rest = try await server.call("GET", "/1/classes/GameScore/\(objectId)")
            #expect(found == rest.json)
            #expect(found["score"] == 1337)
            #expect(
                try await client.data("find", ["c": "GameScore", "objectId": .string(objectId), "data": [:]]) == found)

            let updated = try await client.data(
                "update",
                [
                    "c": "GameScore", "objectId": .string(objectId),
                    "data": ["score": ["__op": "Increment", "amount": 1]],
                ])
            #expect(updated == ["updatedAt": "2015-07-22 02:22:50"])
            #expect(try await server.call("GET", "/1/classes/GameScore/\(objectId)").json?["score"] == 1338)

            #expect(
                try await client.data("delete", ["c": "GameScore", "objectId": .string(objectId)]) == ["msg": "ok"])
            let missing = try await client.call("find", ["c": "GameScore", "objectId": .string(objectId), "data": nil])
            #expect(missing.code == 101)
            #expect(missing.data == [:])
            #expect(try await client.call("delete", ["c": "GameScore", "objectId": .string(objectId)]).code == 101)
            #expect(
                try await client.call("update", ["c": "GameScore", "objectId": .string(objectId), "data": ["a": 1]])
                    .code == 101)
        }
    }

    @Test func serviceErrorsKeepTheirCodes() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            _ = try await client.data("create", ["c": "Typed", "data": ["n": 1]])
            #expect(try await client.call("create", ["c": "Typed", "data": ["n": "one"]]).code == 111)
            #expect(try await client.call("create", ["c": "Typed", "data": ["$bad": 1]]).code == 105)
            #expect(try await client.call("create", ["c": "Typed", "data": ["p": ["__type": "Pointer"]]]).code == 106)
            #expect(try await client.call("find", ["c": "Typed", "data": ["where": ["n": ["$bogus": 1]]]]).code == 102)
        }
    }

    @Test func objectsCrossBetweenNativeAndREST() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let nativeId = try #require(
                try await client.data("create", ["c": "Note", "data": ["title": "from native"]])["objectId"]?
                    .stringValue)
            #expect(try await server.call("GET", "/1/classes/Note/\(nativeId)").json?["title"] == "from native")
            let restId = try await server.create("Note", ["title": "from rest"])
            #expect(try await client.data("find", ["c": "Note", "objectId": .string(restId)])["title"] == "from rest")
            _ = try await server.call("PUT", "/1/classes/Note/\(nativeId)", json: ["title": "changed by rest"])
            let many = try await client.data("find", ["c": "Note", "data": ["order": "createdAt"]])
            #expect(
                many["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == [
                    "changed by rest", "from rest",
                ])
        }
    }

    @Test func writesAreJournaledAsNative() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let objectId = try #require(
                try await client.data("create", ["c": "Logged", "data": ["a": 1]])["objectId"]?.stringValue)
            _ = try await client.data("update", ["c": "Logged", "objectId": .string(objectId), "data": ["a": 2]])
            _ = try await server.call("PUT", "/1/classes/Logged/\(objectId)", json: ["a": 3])
            _ = try await client.data(
                "batch", ["requests": [["method": "delete", "c": "Logged", "objectId": .string(objectId)]]])
            let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            let entries = try await runtime.store.journal(after: 0, limit: 10).filter { $0.op != .schema }
            #expect(entries.map(\.op.rawValue) == ["create", "update", "update", "delete"])
            // The door is recorded beside the caller (anonymous here, so no user id).
            #expect(entries.map(\.door) == ["native", "native", "rest", "native"])
            #expect(entries.allSatisfy { $0.caller == nil })
        }
    }

    /// Five GameScore rows with a pointer each.
    private func seed(_ client: NativeTestClient) async throws {
        let author = try #require(
            try await client.data("create", ["c": "Author", "data": ["name": "Lu Xun"]])["objectId"])
        for (name, score, team) in [
            ("Sean", 1337, "a"), ("Anna", 900, "b"), ("Bob", 100, "a"), ("Cleo", 2500, "c"), ("Dan", 900, "b"),
        ] {
            _ = try await client.data(
                "create",
                [
                    "c": "GameScore",
                    "data": [
                        "playerName": .string(name), "score": .int(Int64(score)), "team": .string(team),
                        "author": ["__type": "Pointer", "className": "Author", "objectId": author],
                    ],
                ])
        }
    }

    private func names(_ data: JSONValue) -> [String] {
        data["results"]?.arrayValue?.compactMap { $0["playerName"]?.stringValue } ?? []
    }

    @Test func findManyCountAndProjection() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            try await seed(client)
            func find(_ data: JSONValue) async throws -> JSONValue {
                try await client.data("find", ["c": "GameScore", "data": data])
            }
            #expect(names(try await find(["order": "-score"])) == ["Cleo", "Sean", "Anna", "Dan", "Bob"])
            #expect(names(try await find(["order": "-score", "limit": 2, "skip": 1])) == ["Sean", "Anna"])
            #expect(
                names(try await find(["where": ["score": ["$gte": 900]], "order": "score,-playerName"])) == [
                    "Dan", "Anna", "Sean", "Cleo",
                ])
            #expect(names(try await find(["where": "{\"team\":\"a\"}", "order": "playerName"])) == ["Bob", "Sean"])

            let counted = try await find(["where": ["team": "b"], "count": true])
            #expect(counted["count"] == 2)
            #expect(names(counted).count == 2)
            #expect(try await find(["where": ["team": "b"], "count": true, "limit": 0]) == ["count": 2])

            let projected = try await find(["keys": "playerName", "where": ["playerName": "Bob"]])
            let bob = try #require(projected["results"]?.arrayValue?.first)
            #expect(bob["score"] == nil && bob["playerName"] == "Bob" && bob["objectId"] != nil)

            let included = try await find(["include": "author", "where": ["playerName": "Bob"]])
            #expect(included["results"]?.arrayValue?.first?["author"]?["name"] == "Lu Xun")

            // The same query over REST answers the same results.
            let rest = try await server.call("GET", "/1/classes/GameScore?order=-score&limit=3&count=1")
            #expect(try await find(["order": "-score", "limit": 3, "count": true]) == rest.json)
        }
    }

    @Test func aggregatesAnswerAsREST() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            try await seed(client)
            let data = try await client.data(
                "find",
                [
                    "c": "GameScore", "data": ["groupby": "team", "sum": "score", "groupcount": true, "order": "team"],
                ])
            let rows = try #require(data["results"]?.arrayValue)
            #expect(rows.map { $0["team"] } == ["a", "b", "c"])
            #expect(rows.map { $0["_sumScore"]?.doubleValue } == [1437, 1800, 2500])
            #expect(rows.map { $0["_count"] } == [2, 2, 1])
            let rest = try await server.call(
                "GET", "/1/classes/GameScore?groupby=team&sum=score&groupcount=true&order=team")
            #expect(data == rest.json)
            let having = try await client.data(
                "find",
                [
                    "c": "GameScore",
                    "data": [
                        "groupby": "team", "max": "score", "having": ["_maxScore": ["$gt": 1000]], "order": "team",
                    ],
                ])
            #expect(having["results"]?.arrayValue?.map { $0["team"] } == ["a", "c"])
        }
    }

    @Test func batchInTheRESTShapeAtTheTopLevel() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let existing = try await server.create("Batch", ["n": 0])
            let data = try await client.data(
                "batch",
                [
                    "requests": [
                        ["method": "POST", "path": "/1/classes/Batch", "body": ["n": 1]],
                        ["method": "put", "path": .string("/1/classes/Batch/\(existing)"), "body": ["n": 5]],
                        ["method": "DELETE", "path": "/1/classes/Batch/nope000000"],
                    ]
                ])
            let results = try #require(data["results"]?.arrayValue)
            #expect(results.count == 3)
            let createdId = try #require(results[0]["success"]?["objectId"]?.stringValue)
            #expect(results[0]["success"]?["createdAt"]?.stringValue != nil)
            #expect(results[1]["success"]?["updatedAt"]?.stringValue != nil)
            #expect(results[2] == ["error": ["code": 101, "error": "object not found for nope000000."]])
            #expect(try await server.call("GET", "/1/classes/Batch/\(existing)").json?["n"] == 5)
            #expect(try await server.call("GET", "/1/classes/Batch/\(createdId)").json?["n"] == 1)
        }
    }

    @Test func batchInTheNativeShapeInsideData() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let existing = try await server.create("Batch", ["n": 0])
            let doomed = try await server.create("Batch", ["n": 9])
            let data = try await client.data(
                "batch",
                [
                    "data": [
                        "requests": [
                            ["method": "create", "c": "Batch", "data": ["n": 1]],
                            [
                                "method": "update", "c": "Batch", "objectId": .string(existing),
                                "data": ["n": ["__op": "Increment", "amount": 2]],
                            ],
                            ["method": "delete", "c": "Batch", "objectId": .string(doomed)],
                            ["method": "POST", "path": "/1/classes/Batch", "body": ["n": 3]],
                            ["method": "create", "c": "_User", "data": ["n": 4]],
                        ]
                    ]
                ])
            let results = try #require(data["results"]?.arrayValue)
            #expect(results.count == 5)
            #expect(results[0]["success"]?["objectId"]?.stringValue != nil)
            #expect(results[1]["success"]?["updatedAt"]?.stringValue != nil)
            #expect(results[2]["success"] == ["msg": "ok"])
            #expect(results[3]["success"]?["objectId"]?.stringValue != nil)
            #expect(results[4]["error"]?["code"] == 108)  // a _User create is a signup: username and password required
            #expect(try await server.call("GET", "/1/classes/Batch/\(existing)").json?["n"] == 2)
            #expect(try await server.call("GET", "/1/classes/Batch/\(doomed)").json?["code"] == 101)
        }
    }

    @Test func batchLimitsAndShapes() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let many = JSONValue.array(Array(repeating: ["method": "create", "c": "B", "data": [:]], count: 51))
            let tooMany = try await client.call("batch", ["requests": many])
            #expect(tooMany.code == 114)
            #expect(try await client.call("batch", ["requests": "no"]).code == 112)
            #expect(try await client.call("batch", [:]).code == 112)
            #expect(try await client.call("batch", ["requests": [["method": "update", "c": "B"]]]).code == 113)
            #expect(try await client.call("batch", ["requests": [["path": "/1/classes/B"]]]).code == 113)
            let fifty = JSONValue.array(Array(repeating: ["method": "create", "c": "B", "data": ["x": 1]], count: 50))
            #expect(try await client.data("batch", ["requests": fifty])["results"]?.arrayValue?.count == 50)
        }
    }

    @Test func cloudQueryAsREST() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            try await seed(client)
            let data = try await client.data(
                "cloud_query",
                [
                    "data": ["bql": "select * from GameScore where score > ? order by -score", "values": [1000]]
                ])
            #expect(names(data) == ["Cleo", "Sean"])
            let counted = try await client.data(
                "cloud_query", ["data": ["bql": "select count(*) from GameScore where team = 'b'"]])
            #expect(counted["count"] == 2)
            let bql = "select count(*), * from GameScore where team = 'a' order by playerName"
            let rest = try await server.call("GET", "/1/cloudQuery?bql=\(queryEncoded(bql))")
            #expect(try await client.data("cloud_query", ["data": ["bql": .string(bql)]]) == rest.json)
            #expect(try await client.call("cloud_query", ["data": ["bql": "select from"]]).code == 601)
            #expect(try await client.call("cloud_query", ["data": [:]]).code == 601)
        }
    }

    @Test func timestampAsREST() async throws {
        try await withTestServer(clock: .fixed(1_437_531_770_000)) { server in
            let data = try await NativeTestClient(server).data("timestamp")
            let rest = try await server.call("GET", "/1/timestamp")
            #expect(data["S"] == 1_437_531_770)
            #expect(data["timestamp"] == 1_437_531_770)
            #expect(data["datetime"] == rest.json?["datetime"])
            #expect(data["datetime"] == "2015-07-22 10:22:50")
        }
    }
}
