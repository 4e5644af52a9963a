import BmobServer
import BmobTesting
import BmobWire
import Testing

@Suite("Class-level permissions")
struct ClassPermissionTests {
    private func signUp(_ server: TestServer, _ name: String) async throws -> (id: String, headers: [(String, String)]) {
        let (id, token) = try await server.signUpUser(name, password: "pw")
        return (id, [("X-Bmob-Session-Token", token)])
    }

    @Test("rules decide per operation: public, logged-in users, one user, closed; the master key bypasses them")
    func operations() async throws {
        try await withTestServer { server in
            let writer = try await signUp(server, "writer")
            let reader = try await signUp(server, "reader")
            let existing = try await server.create("Post", ["title": "first"])
            let permissions: JSONValue = [
                "get": ["*": true], "find": ["requiresAuthentication": true],
                "create": .object([writer.id: true]), "update": .object([writer.id: true]), "delete": [:],
                "addField": [:],
            ]
            let set = try await server.call("PUT", "/1/schemas/Post", json: ["classLevelPermissions": permissions], master: true)
            #expect(set.status == 200, "\(set.text)")
            let schema = try await server.call("GET", "/1/schemas/Post", master: true)
            #expect(schema.json?["classLevelPermissions"]?["find"] == ["requiresAuthentication": true])

            func code(_ response: RawHTTPResponse) -> Int64? { response.json?["code"]?.int64Value }

            // get: public
            #expect(try await server.call("GET", "/1/classes/Post/\(existing)").status == 200)
            // find: logged-in users only (count and statistics too)
            #expect(code(try await server.call("GET", "/1/classes/Post")) == 501)
            #expect(code(try await server.call("GET", "/1/classes/Post?count=1&limit=0")) == 501)
            #expect(code(try await server.call("GET", "/1/classes/Post?groupby=title")) == 501)
            #expect(try await server.call("GET", "/1/classes/Post", headers: reader.headers).status == 200)
            // create: only the writer
            #expect(code(try await server.call("POST", "/1/classes/Post", json: ["title": "x"], headers: reader.headers)) == 501)
            let created = try await server.call("POST", "/1/classes/Post", json: ["title": "by writer"], headers: writer.headers)
            #expect(created.status == 201)
            // addField: closed, even for the writer; known fields are fine
            #expect(code(try await server.call("POST", "/1/classes/Post", json: ["title": "y", "extra": 1], headers: writer.headers)) == 501)
            #expect(code(try await server.call("PUT", "/1/classes/Post/\(existing)", json: ["extra": 1], headers: writer.headers)) == 501)
            // update: only the writer
            #expect(code(try await server.call("PUT", "/1/classes/Post/\(existing)", json: ["title": "r"], headers: reader.headers)) == 501)
            #expect(try await server.call("PUT", "/1/classes/Post/\(existing)", json: ["title": "w"], headers: writer.headers).status == 200)
            // delete: closed
            #expect(code(try await server.call("DELETE", "/1/classes/Post/\(existing)", headers: writer.headers)) == 501)
            // the master key bypasses everything
            #expect(try await server.call("POST", "/1/classes/Post", json: ["title": "m", "extra": 2], master: true).status == 201)
            #expect(try await server.call("DELETE", "/1/classes/Post/\(existing)", master: true).status == 200)

            // Removing the permissions opens the class again.
            #expect(try await server.call("PUT", "/1/schemas/Post", json: ["classLevelPermissions": nil], master: true).status == 200)
            #expect(try await server.call("GET", "/1/classes/Post").status == 200)
            #expect(try await server.call("GET", "/1/schemas/Post", master: true).json?["classLevelPermissions"] == nil)
        }
    }

    @Test("malformed permissions are 107 and change nothing")
    func malformed() async throws {
        try await withTestServer { server in
            _ = try await server.create("Post", ["title": "t"])
            let bad: [JSONValue] = [
                ["classLevelPermissions": "public"], ["classLevelPermissions": ["read": ["*": true]]],
                ["classLevelPermissions": ["get": ["*": false]]], ["classLevelPermissions": ["get": true]],
            ]
            for body in bad {
                let response = try await server.call("PUT", "/1/schemas/Post", json: body, master: true)
                #expect(response.json?["code"] == 107, "\(body)")
            }
            #expect(try await server.call("GET", "/1/classes/Post").status == 200)
        }
    }

    @Test("roles and users as grantees")
    func grantees() throws {
        let permissions = try ClassPermissions(json: ["find": ["role:Editors": true, "u1": true], "get": ["requiresAuthentication": true]])
        #expect(permissions.allows(.find, .grantees(["*", "u2", "role:Editors"])))
        #expect(permissions.allows(.find, .grantees(["*", "u1"])))
        #expect(permissions.allows(.find, .grantees(["*", "u2"])) == false)
        #expect(permissions.allows(.find, .anonymous) == false)
        #expect(permissions.allows(.get, .grantees(["*", "u2"])))
        #expect(permissions.allows(.get, .anonymous) == false)
        #expect(permissions.allows(.create, .anonymous))
        #expect(permissions.allows(.delete, .master))
        #expect(try ClassPermissions(json: permissions.json) == permissions)
    }
}
