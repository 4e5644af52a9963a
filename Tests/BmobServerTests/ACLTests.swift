import BmobServer
import BmobTesting
import BmobWire
import Testing

@Suite("ACL enforcement")
struct ACLTests {
    private struct Account {
        var id: String
        var token: String
        var headers: [(String, String)] { [("X-Bmob-Session-Token", token)] }
    }

    private func signUp(_ server: TestServer, _ name: String) async throws -> Account {
        let (id, token) = try await server.signUpUser(name, password: "pw")
        return Account(id: id, token: token)
    }

    @Test("private, public-read and open objects across get, find, count, aggregate, include, update and delete")
    func matrix() async throws {
        try await withTestServer { server in
            let alice = try await signUp(server, "alice")
            let bob = try await signUp(server, "bob")
            let privateId = try await server.create("Doc", ["name": "private", "n": 1, "ACL": .object([alice.id: ["read": true, "write": true]])])
            let publicReadId = try await server.create("Doc", ["name": "publicRead", "n": 2, "ACL": .object(["*": ["read": true], alice.id: ["write": true]])])
            let openId = try await server.create("Doc", ["name": "open", "n": 4])
            let lockedId = try await server.create("Doc", ["name": "locked", "n": 8, "ACL": [:]])
            _ = try await server.create("Holder", ["doc": ["__type": "Pointer", "className": "Doc", "objectId": .string(privateId)]])

            func names(_ headers: [(String, String)], master: Bool = false) async throws -> Set<String> {
                let response = try await server.call("GET", "/1/classes/Doc?count=1", master: master, headers: headers)
                let results = response.json?["results"]?.arrayValue ?? []
                #expect(response.json?["count"]?.int64Value == Int64(results.count))
                return Set(results.compactMap { $0["name"]?.stringValue })
            }
            #expect(try await names([]) == ["publicRead", "open"])
            #expect(try await names(bob.headers) == ["publicRead", "open"])
            #expect(try await names(alice.headers) == ["private", "publicRead", "open"])
            #expect(try await names([], master: true) == ["private", "publicRead", "open", "locked"])
            #expect(try await names([("X-Bmob-Session-Token", "forged")]) == ["publicRead", "open"])

            // Aggregates see only readable rows.
            let sum = try await server.call("GET", "/1/classes/Doc?sum=n", headers: alice.headers)
            #expect(sum.json?["results"]?.arrayValue?.first?["_sumN"] == 7)
            let anonymousSum = try await server.call("GET", "/1/classes/Doc?sum=n")
            #expect(anonymousSum.json?["results"]?.arrayValue?.first?["_sumN"] == 6)
            // BQL too.
            let bql = try await server.call("GET", "/1/cloudQuery?bql=" + queryEncoded("select * from Doc"))
            #expect(bql.json?["results"]?.arrayValue?.count == 2)

            // get
            #expect(try await server.call("GET", "/1/classes/Doc/\(privateId)").json?["code"] == 101)
            #expect(try await server.call("GET", "/1/classes/Doc/\(privateId)", headers: bob.headers).json?["code"] == 101)
            #expect(try await server.call("GET", "/1/classes/Doc/\(privateId)", headers: alice.headers).json?["name"] == "private")
            #expect(try await server.call("GET", "/1/classes/Doc/\(lockedId)", master: true).json?["name"] == "locked")

            // include leaves an unreadable target as a pointer
            let holders = try await server.call("GET", "/1/classes/Holder?include=doc")
            #expect(holders.json?["results"]?.arrayValue?.first?["doc"]?["__type"] == "Pointer")
            let holdersForAlice = try await server.call("GET", "/1/classes/Holder?include=doc", headers: alice.headers)
            #expect(holdersForAlice.json?["results"]?.arrayValue?.first?["doc"]?["name"] == "private")

            // update and delete
            for (id, allowedForBob) in [(privateId, false), (publicReadId, false), (openId, true), (lockedId, false)] {
                let update = try await server.call("PUT", "/1/classes/Doc/\(id)", json: ["touched": true], headers: bob.headers)
                #expect((update.status == 200) == allowedForBob, "\(id): \(update.text)")
                if !allowedForBob { #expect(update.json?["code"] == 101) }
            }
            #expect(try await server.call("PUT", "/1/classes/Doc/\(publicReadId)", json: ["touched": true], headers: alice.headers).status == 200)
            #expect(try await server.call("PUT", "/1/classes/Doc/\(lockedId)", json: ["touched": true], master: true).status == 200)
            #expect(try await server.call("DELETE", "/1/classes/Doc/\(privateId)", headers: bob.headers).json?["code"] == 101)
            #expect(try await server.call("DELETE", "/1/classes/Doc/\(privateId)", headers: alice.headers).status == 200)

            // Batch items go through the same checks.
            let batch = try await server.call("POST", "/1/batch", json: ["requests": [
                ["method": "PUT", "path": .string("/1/classes/Doc/\(publicReadId)"), "body": ["x": 1]],
                ["method": "PUT", "path": .string("/1/classes/Doc/\(openId)"), "body": ["x": 1]],
            ]], headers: bob.headers)
            let items = batch.json?.arrayValue ?? []
            #expect(items.first?["error"]?["code"] == 101)
            #expect(items.last?["success"] != nil)
        }
    }

    @Test("sub-queries see only what the caller may read: $inQuery cannot reveal hidden objects")
    func subQueries() async throws {
        try await withTestServer { server in
            let alice = try await signUp(server, "alice")
            let secret = try await server.create("Secret", ["tag": "x", "ACL": .object([alice.id: ["read": true]])])
            _ = try await server.create("Ref", ["n": 1, "secret": ["__type": "Pointer", "className": "Secret", "objectId": .string(secret)]])
            let whereJSON = #"{"secret":{"$inQuery":{"where":{"tag":"x"},"className":"Secret"}}}"#
            let anonymous = try await server.call("GET", "/1/classes/Ref?where=" + queryEncoded(whereJSON))
            #expect(anonymous.json?["results"]?.arrayValue?.count == 0)
            let owner = try await server.call("GET", "/1/classes/Ref?where=" + queryEncoded(whereJSON), headers: alice.headers)
            #expect(owner.json?["results"]?.arrayValue?.count == 1)
            let master = try await server.call("GET", "/1/classes/Ref?where=" + queryEncoded(whereJSON), master: true)
            #expect(master.json?["results"]?.arrayValue?.count == 1)
        }
    }
}
