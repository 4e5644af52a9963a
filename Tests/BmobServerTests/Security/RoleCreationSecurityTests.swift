import BmobServer
import BmobTesting
import BmobWire
import Testing

/// Role-name squatting (issue 14, item 15): roles are created with the master key by default, on every door;
/// names are unique whatever their case.
@Suite("Security: roles")
struct RoleCreationSecurityTests {
    @Test("by default only the master key creates roles: REST, /8/ and batch refuse clients")
    func masterOnlyByDefault() async throws {
        try await withTestServer { server in
            let (_, token) = try await server.signUpUser("mallory", password: "pw")
            for headers in [[], [("X-Bmob-Session-Token", token)]] {
                let response = try await server.call("POST", "/1/roles", json: ["name": "admin"], headers: headers)
                #expect(response.json?["code"] == 501, "\(response.text)")
            }
            let native = try await NativeTestClient(server).call("create", ["c": "_Role", "data": ["name": "admin"]])
            #expect(native.code == 501)
            let batch = try await server.call(
                "POST", "/1/batch", json: ["requests": [["method": "POST", "path": "/1/classes/_Role", "body": ["name": "admin"]]]])
            #expect(batch.json?.arrayValue?.first?["error"]?["code"] != nil, "\(batch.text)")
            #expect(try await server.call("GET", "/1/roles", master: true).json?["results"]?.arrayValue?.isEmpty == true)
            #expect(try await server.call("POST", "/1/roles", json: ["name": "Admin"], master: true).status == 201)
        }
    }

    @Test("names are unique regardless of case: admin beside Admin is 139, even for the master key")
    func caseInsensitiveNames() async throws {
        try await withTestServer { server in
            #expect(try await server.call("POST", "/1/roles", json: ["name": "Admin"], master: true).status == 201)
            for name in ["admin", "ADMIN", "aDmIn"] {
                let response = try await server.call("POST", "/1/roles", json: .object(["name": .string(name)]), master: true)
                #expect(response.json?["code"] == 139, "\(name): \(response.text)")
            }
            #expect(try await server.call("POST", "/1/roles", json: ["name": "Admins"], master: true).status == 201)
        }
    }

    @Test("allowClientRoleCreation on: clients may create roles again, still with unique names")
    func clientRolesWhenAllowed() async throws {
        var security = AppSecurity()
        security.allowClientRoleCreation = true
        try await withTestServer(security: security) { server in
            let created = try await server.call("POST", "/1/roles", json: ["name": "Editors"])
            #expect(created.status == 201)
            #expect(try await server.call("POST", "/1/roles", json: ["name": "editors"]).json?["code"] == 139)
        }
    }
}
