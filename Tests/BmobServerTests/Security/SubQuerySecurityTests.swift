import BmobServer
import BmobTesting
import BmobWire
import Testing

/// Sub-queries are authorized as if the caller ran them directly (issue 14, items 1 and 3): a sub-query into a
/// class whose `find` the caller may not run fails the whole query with the same 501 a direct query gets, on
/// every front door and for every sub-query operator; `$relatedTo` needs the owner class's `get` and an owner the
/// caller may read.
@Suite("Security: sub-queries")
struct SubQuerySecurityTests {
    /// `Vault` (find and get closed to all but the master key) holds a pin; `Note` points at it, holds it in a
    /// relation, and copies nothing of it.
    struct Fixture {
        let server: TestServer
        var vault = ""
        var note = ""

        static func build(_ server: TestServer) async throws -> Fixture {
            var fixture = Fixture(server: server)
            fixture.vault = try await server.create("Vault", ["pin": "1234", "label": "main"])
            let pointer: JSONValue = ["__type": "Pointer", "className": "Vault", "objectId": .string(fixture.vault)]
            fixture.note = try await server.create(
                "Note",
                [
                    "title": "hello", "vault": pointer, "label": "main",
                    "safe": ["__op": "AddRelation", "objects": [pointer]],
                ])
            let closed = try await server.call(
                "PUT", "/1/schemas/Vault", json: ["classLevelPermissions": ["find": [:], "get": [:]]], master: true)
            guard closed.status == 200 else { throw TestFailure("closing Vault: \(closed.text)") }
            return fixture
        }

        var vaultPointer: JSONValue { ["__type": "Pointer", "className": "Vault", "objectId": .string(vault)] }
    }

    /// Every sub-query operator, each reaching into `Vault`, as a `where` on `Note`.
    static func subQueryWheres(_ fixture: Fixture) -> [(String, JSONValue)] {
        let probe: JSONValue = ["className": "Vault", "where": ["pin": ["$regex": "^1"]]]
        return [
            ("$inQuery", ["vault": ["$inQuery": probe]]),
            ("$notInQuery", ["vault": ["$notInQuery": probe]]),
            ("$select", ["label": ["$select": ["query": probe, "key": "label"]]]),
            ("$dontSelect", ["label": ["$dontSelect": ["query": probe, "key": "label"]]]),
            ("relation $inQuery", ["safe": ["$inQuery": probe]]),
            (
                "nested in an open class's sub-query",
                ["objectId": ["$select": ["query": ["className": "Note", "where": ["vault": ["$inQuery": probe]]], "key": "objectId"]]]
            ),
            ("inside $or", ["$or": [["title": "nothing"], ["vault": ["$inQuery": probe]]]]),
        ]
    }

    @Test("the probe that read Vault.pin through $inQuery + $regex is refused, the same 501 as a direct query")
    func theProbe() async throws {
        try await withTestServer { server in
            let fixture = try await Fixture.build(server)
            let direct = try await server.call("GET", "/1/classes/Vault?where=" + queryEncoded(#"{"pin":{"$regex":"^1"}}"#))
            #expect(direct.json?["code"] == 501)
            for (name, filter) in Self.subQueryWheres(fixture) {
                let response = try await server.call("GET", "/1/classes/Note?where=" + queryEncoded(filter.jsonString))
                #expect(response.status == 400, "\(name): \(response.text)")
                #expect(response.json?["code"] == 501, "\(name): \(response.text)")
                #expect(response.json?["error"] == direct.json?["error"], "\(name): the direct query's error")
            }
            // The master key may: the sub-query finds the note.
            let master = try await server.call(
                "GET", "/1/classes/Note?where=" + queryEncoded(Self.subQueryWheres(fixture)[0].1.jsonString), master: true)
            #expect(master.json?["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("every front door: count, statistics, /1/users, /1/roles, BQL over REST and /8/, native find")
    func everyDoor() async throws {
        try await withTestServer { server in
            let fixture = try await Fixture.build(server)
            let filter: JSONValue = ["vault": ["$inQuery": ["className": "Vault", "where": ["pin": "1234"]]]]
            let encoded = queryEncoded(filter.jsonString)
            let rest = [
                "/1/classes/Note?count=1&limit=0&where=\(encoded)",
                "/1/classes/Note?sum=n&groupby=title&where=\(encoded)",
                "/1/users?where=\(encoded)",
                "/1/roles?where=\(encoded)",
                "/1/cloudQuery?bql=" + queryEncoded("select * from Note where vault in (select * from Vault where pin = '1234')"),
                "/1/cloudQuery?bql=" + queryEncoded("select count(*) from Note where label in (select label from Vault)"),
            ]
            for target in rest {
                let response = try await server.call("GET", target)
                #expect(response.json?["code"] == 501, "\(target): \(response.text)")
            }
            let client = NativeTestClient(server)
            #expect(try await client.call("find", ["c": "Note", "data": ["where": filter]]).code == 501)
            #expect(try await client.call("find", ["c": "Note", "data": ["where": filter, "count": true, "limit": 0]]).code == 501)
            let bql = "select * from Note where vault not in (select * from Vault where pin = '1234')"
            #expect(try await client.call("cloud_query", ["data": ["bql": .string(bql)]]).code == 501)
            _ = fixture
        }
    }

    @Test("$relatedTo needs the owner class's get, and a private owner lists nothing")
    func relatedTo() async throws {
        try await withTestServer { server in
            let (aliceId, aliceToken) = try await server.signUpUser("alice", password: "pw")
            let target = try await server.create("Card", ["n": 1])
            let cards: JSONValue = [
                "__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Card", "objectId": .string(target)]],
            ]
            let privateOwner = try await server.create(
                "Deck", ["cards": cards, "ACL": .object([aliceId: ["read": true, "write": true]])])
            let publicOwner = try await server.create("Deck", ["cards": cards])
            func related(_ owner: String, _ headers: [(String, String)] = []) async throws -> RawHTTPResponse {
                let filter: JSONValue = [
                    "$relatedTo": [
                        "object": ["__type": "Pointer", "className": "Deck", "objectId": .string(owner)], "key": "cards",
                    ]
                ]
                return try await server.call(
                    "GET", "/1/classes/Card?where=" + queryEncoded(filter.jsonString), headers: headers)
            }
            #expect(try await related(publicOwner).json?["results"]?.arrayValue?.count == 1)
            #expect(try await related(privateOwner).json?["results"]?.arrayValue?.count == 0)
            let owner = try await related(privateOwner, [("X-Bmob-Session-Token", aliceToken)])
            #expect(owner.json?["results"]?.arrayValue?.count == 1)
            // A missing owner lists nothing either (the same answer as a private one).
            #expect(try await related("nosuchobject").json?["results"]?.arrayValue?.count == 0)
            _ = try await server.call(
                "PUT", "/1/schemas/Deck", json: ["classLevelPermissions": ["get": [:]]], master: true)
            #expect(try await related(publicOwner).json?["code"] == 501)
        }
    }

    @Test("object ACLs apply inside sub-queries: a hidden object matches nothing, for every operator")
    func aclInsideSubQueries() async throws {
        try await withTestServer { server in
            let hidden = try await server.create("Secret", ["code": "x1", "ACL": ["nobody": ["read": true]]])
            let pointer: JSONValue = ["__type": "Pointer", "className": "Secret", "objectId": .string(hidden)]
            _ = try await server.create("Memo", ["secret": pointer, "code": "x1", "box": ["__op": "AddRelation", "objects": [pointer]]])
            let inner: JSONValue = ["className": "Secret", "where": ["code": "x1"]]
            let matching: [JSONValue] = [
                ["secret": ["$inQuery": inner]], ["code": ["$select": ["query": inner, "key": "code"]]],
                ["box": ["$inQuery": inner]],
            ]
            for filter in matching {
                let anonymous = try await server.call("GET", "/1/classes/Memo?where=" + queryEncoded(filter.jsonString))
                #expect(anonymous.json?["results"]?.arrayValue?.count == 0, "\(filter.jsonString)")
                let master = try await server.call(
                    "GET", "/1/classes/Memo?where=" + queryEncoded(filter.jsonString), master: true)
                #expect(master.json?["results"]?.arrayValue?.count == 1, "\(filter.jsonString)")
            }
        }
    }

    @Test("hostile: deeply nested and repeated sub-queries are refused or bounded, never a 500")
    func hostileNesting() async throws {
        try await withTestServer { server in
            _ = try await Fixture.build(server)
            var filter: JSONValue = ["pin": "1234"]
            for _ in 0..<40 {
                filter = ["vault": ["$inQuery": ["className": "Vault", "where": filter]]]
            }
            let deep = try await server.call("GET", "/1/classes/Note?where=" + queryEncoded(filter.jsonString))
            #expect(deep.status == 400, "\(deep.text)")
            #expect(deep.json?["code"] != nil)
            let repeated: JSONValue = [
                "$or": .array(
                    (0..<50).map { _ in ["vault": ["$inQuery": ["className": "Note", "where": ["title": "hello"]]]] })
            ]
            let wide = try await server.call("GET", "/1/classes/Note?where=" + queryEncoded(repeated.jsonString))
            #expect(wide.status == 200, "\(wide.text)")
        }
    }
}
