import BmobServer
import BmobTesting
import BmobWire
import Testing

/// Schemas list every field and permission of an app (issue 14, item 12): the master key only, on every door.
@Suite("Security: schemas")
struct SchemaAccessSecurityTests {
    @Test("schemas need the master key on /8/ as on REST: a native client has none, so it gets 401")
    func schemasNeedTheMasterKey() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            _ = try await client.data("create", ["c": "GameScore", "data": ["score": 1, "name": "x"]])
            #expect(try await client.call("schemas", ["c": "GameScore"]).code == 401)
            #expect(try await client.call("schemas", ["c": nil]).code == 401)
            #expect(try await client.call("schemas", ["c": "Nope"]).code == 401)
            for (method, target) in [("GET", "/1/schemas"), ("GET", "/1/schemas/GameScore"), ("DELETE", "/1/schemas/GameScore")] {
                #expect(try await server.call(method, target).status == 401, "\(method) \(target)")
            }
            let changed = try await server.call("PUT", "/1/schemas/GameScore", json: ["fields": ["n": ["type": "Number"]]])
            #expect(changed.status == 401)
            let rest = try await server.call("GET", "/1/schemas/GameScore", master: true)
            #expect(rest.json?["fields"]?["score"] == ["type": "Number"])
            #expect(rest.json?["fields"]?["n"] == nil)
        }
    }
}
