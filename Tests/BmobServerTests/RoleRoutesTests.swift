import BmobServer
import BmobTesting
import BmobWire
import Testing

/// REST `/1/roles` over loopback: create, read, query, update, delete, the name rules, membership
/// operators and the role ACL's write checks. The app lets clients create roles, so that the rules for
/// client-made roles can be seen; the default (master key only) is tested in `RoleCreationSecurityTests`.
@Suite("REST roles")
struct RoleRoutesTests {
    /// An app whose clients may create roles.
    static let clientRoles: AppSecurity = {
        var security = AppSecurity()
        security.allowClientRoleCreation = true
        return security
    }()

    /// Signs up and returns (objectId, sessionToken).
    private func signUp(_ server: TestServer, _ username: String) async throws -> (String, String) {
        try await server.signUpUser(username, password: "pw")
    }

    private func session(_ token: String) -> [(String, String)] {
        [("X-Bmob-Session-Token", token)]
    }

    private func pointer(_ id: String, _ className: String) -> JSONValue {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(id)]
    }

    private func relation(_ op: String, _ ids: [String], _ className: String) -> JSONValue {
        ["__op": .string(op), "objects": .array(ids.map { pointer($0, className) })]
    }

    /// Creates a role and returns its id.
    private func createRole(_ server: TestServer, _ body: JSONValue, master: Bool = false) async throws -> String {
        let response = try await server.call("POST", "/1/roles", json: body, master: master)
        guard response.status == 201, let id = response.json?["objectId"]?.stringValue else {
            throw TestFailure("role create failed: \(response.status) \(response.text)")
        }
        return id
    }

    private func code(_ response: RawHTTPResponse) -> Int64? {
        response.json?["code"]?.int64Value
    }

    private func userIds(inRole roleId: String, _ server: TestServer) async throws -> Set<String> {
        let related =
            #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":""#
            + roleId + #""},"key":"users"}}"#
        let response = try await server.call("GET", "/1/users?where=" + queryEncoded(related))
        let results = response.json?["results"]?.arrayValue ?? []
        return Set(results.compactMap { $0["objectId"]?.stringValue })
    }

    @Test("create answers 201 with objectId, createdAt and Location; get, query and delete follow")
    func lifecycle() async throws {
        try await withTestServer(security: Self.clientRoles) { server in
            let (alice, token) = try await signUp(server, "alice")
            let acl: JSONValue = ["*": ["read": true], alice: ["read": true, "write": true]]
            let created = try await server.call(
                "POST", "/1/roles", json: ["name": "Moderators", "ACL": acl, "level": 3])
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json?["objectId"]?.stringValue)
            #expect(created.json?["createdAt"]?.stringValue?.count == 19)
            #expect(created.headers["Location"]?.hasSuffix("/1/roles/\(id)") == true)

            let read = try await server.call("GET", "/1/roles/\(id)")
            #expect(read.status == 200)
            #expect(read.json?["name"] == "Moderators")
            #expect(read.json?["level"] == 3)
            #expect(read.json?["ACL"] == acl)
            let slash = try await server.call("GET", "/1/roles/\(id)/")
            #expect(slash.json?["objectId"]?.stringValue == id)

            // A second role through the trailing-slash path the JS SDK uses.
            let other = try await server.call("POST", "/1/roles/", json: ["name": "Writers"])
            #expect(other.status == 201)

            let all = try await server.call("GET", "/1/roles?order=name&count=1")
            #expect(all.status == 200)
            #expect(all.json?["count"] == 2)
            #expect(
                all.json?["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Moderators", "Writers"])
            let found = try await server.call("GET", "/1/roles?where=" + queryEncoded(#"{"name":"Moderators"}"#))
            #expect(found.json?["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == [id])

            let updated = try await server.call("PUT", "/1/roles/\(id)", json: ["level": 4], headers: session(token))
            #expect(updated.status == 200)
            #expect(updated.json?["updatedAt"]?.stringValue != nil)
            #expect(try await server.call("GET", "/1/roles/\(id)").json?["level"] == 4)

            let deleted = try await server.call("DELETE", "/1/roles/\(id)", headers: session(token))
            #expect(deleted.status == 200)
            #expect(deleted.json == ["msg": "ok"])
            let gone = try await server.call("GET", "/1/roles/\(id)")
            #expect(gone.status == 400)
            #expect(code(gone) == 101)
            let again = try await server.call("DELETE", "/1/roles/\(id)", master: true)
            #expect(code(again) == 101)
            #expect(code(try await server.call("PUT", "/1/roles/\(id)", json: ["level": 1], master: true)) == 101)
        }
    }

    @Test("name rules: required, letters/digits/space/-/_ only, unique in any case, and set only once — all 139")
    func nameRules() async throws {
        try await withTestServer(security: Self.clientRoles) { server in
            let id = try await createRole(server, ["name": "Team-A b_2"])
            let bad: [JSONValue] = [
                [:], ["name": .null], ["name": ""], ["name": 42], ["name": "Mod!"], ["name": "role:Admins"],
                ["name": "版主"], ["name": "Tab\tName"], ["name": .string(String(repeating: "x", count: 129))],
                ["name": "Team-A b_2"], ["name": "team-a B_2"],
            ]
            for body in bad {
                let response = try await server.call("POST", "/1/roles", json: body)
                #expect(response.status == 400, "\(body)")
                #expect(code(response) == 139, "\(body): \(response.text)")
                #expect(response.json?["error"]?.stringValue?.isEmpty == false)
            }
            _ = try await createRole(server, ["name": .string(String(repeating: "x", count: 128))])

            for change in [["name": "Renamed"], ["name": ["__op": "Delete"]], ["name": 7]] as [JSONValue] {
                let response = try await server.call("PUT", "/1/roles/\(id)", json: change, master: true)
                #expect(code(response) == 139, "\(change): \(response.text)")
            }
            // Repeating the same name is not a change.
            let same = try await server.call("PUT", "/1/roles/\(id)", json: ["name": "Team-A b_2", "note": "x"])
            #expect(same.status == 200, "\(same.text)")
            #expect(try await server.call("GET", "/1/roles/\(id)").json?["name"] == "Team-A b_2")
        }
    }

    @Test("users and roles change through AddRelation and RemoveRelation, and must point to _User and _Role")
    func membership() async throws {
        try await withTestServer(security: Self.clientRoles) { server in
            let (alice, _) = try await signUp(server, "alice")
            let (bob, _) = try await signUp(server, "bob")
            let moderators = try await createRole(
                server, ["name": "Moderators", "users": relation("AddRelation", [alice, bob], "_User")])
            #expect(try await userIds(inRole: moderators, server) == [alice, bob])

            let admins = try await createRole(
                server, ["name": "Admins", "roles": relation("AddRelation", [moderators], "_Role")])
            let children =
                #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":""#
                + admins + #""},"key":"roles"}}"#
            let childList = try await server.call("GET", "/1/roles?where=" + queryEncoded(children))
            #expect(childList.json?["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Moderators"])

            // Which roles hold alice directly.
            let holding = try await server.call(
                "GET", "/1/roles?where=" + queryEncoded(#"{"users":"# + pointer(alice, "_User").jsonString + "}"))
            #expect(holding.json?["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Moderators"])

            let removed = try await server.call(
                "PUT", "/1/roles/\(moderators)", json: ["users": relation("RemoveRelation", [bob], "_User")])
            #expect(removed.status == 200, "\(removed.text)")
            #expect(try await userIds(inRole: moderators, server) == [alice])
            let added = try await server.call(
                "PUT", "/1/roles/\(moderators)", json: ["users": relation("AddRelation", [bob, alice], "_User")])
            #expect(added.status == 200)
            #expect(try await userIds(inRole: moderators, server) == [alice, bob])

            let wrong: [(JSONValue, Int64)] = [
                (["users": relation("AddRelation", [moderators], "_Role")], 111),
                (["roles": relation("AddRelation", [alice], "_User")], 111),
                (["users": "alice"], 111),
                (["users": ["__op": "Delete"]], 111),
                (["roles": [pointer(moderators, "_Role")]], 111),
                (["users": ["__op": "AddRelation", "objects": [1]]], 106),
            ]
            for (body, expected) in wrong {
                let response = try await server.call("PUT", "/1/roles/\(moderators)", json: body, master: true)
                #expect(code(response) == expected, "\(body): \(response.text)")
                var create = body.objectValue ?? [:]
                create["name"] = "Fresh"
                let created = try await server.call("POST", "/1/roles", json: .object(create))
                #expect(code(created) == expected, "create \(body): \(created.text)")
            }
            #expect(try await userIds(inRole: moderators, server) == [alice, bob])
        }
    }

    @Test("a role's ACL decides who may change or delete it; others get 101; the master key always may")
    func writeAccess() async throws {
        try await withTestServer(security: Self.clientRoles) { server in
            let (alice, aliceToken) = try await signUp(server, "alice")
            let (_, bobToken) = try await signUp(server, "bob")
            let (carol, carolToken) = try await signUp(server, "carol")
            let acl: JSONValue = ["*": ["read": true], alice: ["read": true, "write": true]]
            let owned = try await createRole(server, ["name": "Owned", "ACL": acl])

            let anonymous = try await server.call("PUT", "/1/roles/\(owned)", json: ["note": "x"])
            #expect(anonymous.status == 400)
            #expect(code(anonymous) == 101)
            #expect(
                code(try await server.call("PUT", "/1/roles/\(owned)", json: ["note": "x"], headers: session(bobToken)))
                    == 101)
            #expect(
                code(try await server.call("PUT", "/1/roles/\(owned)", json: ["note": "x"], headers: session("bogus")))
                    == 101)
            let addSelf = try await server.call(
                "PUT", "/1/roles/\(owned)", json: ["users": relation("AddRelation", [carol], "_User")],
                headers: session(carolToken))
            #expect(code(addSelf) == 101)
            #expect(try await userIds(inRole: owned, server).isEmpty)

            let byOwner = try await server.call(
                "PUT", "/1/roles/\(owned)", json: ["note": "alice"], headers: session(aliceToken))
            #expect(byOwner.status == 200, "\(byOwner.text)")
            let byMaster = try await server.call("PUT", "/1/roles/\(owned)", json: ["note": "master"], master: true)
            #expect(byMaster.status == 200)
            #expect(try await server.call("GET", "/1/roles/\(owned)").json?["note"] == "master")

            // Write granted through a role: members of Editors (directly or through a child role) may write.
            let editors = try await createRole(
                server,
                ["name": "Editors", "ACL": ["*": ["read": true]], "users": relation("AddRelation", [carol], "_User")],
                master: true)
            let managed = try await createRole(
                server, ["name": "Managed", "ACL": ["role:Editors": ["write": true]]])
            let byRole = try await server.call(
                "PUT", "/1/roles/\(managed)", json: ["note": "carol"], headers: session(carolToken))
            #expect(byRole.status == 200, "\(byRole.text)")
            #expect(
                code(
                    try await server.call(
                        "PUT", "/1/roles/\(managed)", json: ["note": "alice"], headers: session(aliceToken))) == 101)
            // Nobody but the master key may change Editors (its ACL grants no write), so alice cannot join it.
            let join = try await server.call(
                "PUT", "/1/roles/\(editors)", json: ["users": relation("AddRelation", [alice], "_User")],
                headers: session(aliceToken))
            #expect(code(join) == 101)
            let juniors = try await createRole(
                server, ["name": "Juniors", "users": relation("AddRelation", [alice], "_User")])
            let link = try await server.call(
                "PUT", "/1/roles/\(editors)", json: ["roles": relation("AddRelation", [juniors], "_Role")], master: true
            )
            #expect(link.status == 200)
            let inherited = try await server.call(
                "PUT", "/1/roles/\(managed)", json: ["note": "alice"], headers: session(aliceToken))
            #expect(inherited.status == 200, "\(inherited.text)")

            // A role without an ACL is public: anyone may change it.
            let open = try await createRole(server, ["name": "Open"])
            #expect(try await server.call("PUT", "/1/roles/\(open)", json: ["note": "anyone"]).status == 200)

            // Deleting: a session (or the master key) is required, then the ACL decides.
            let noSession = try await server.call("DELETE", "/1/roles/\(open)")
            #expect(code(noSession) == 206)
            #expect(code(try await server.call("DELETE", "/1/roles/\(open)", headers: session("bogus"))) == 206)
            #expect(code(try await server.call("DELETE", "/1/roles/\(owned)", headers: session(bobToken))) == 101)
            #expect(try await server.call("DELETE", "/1/roles/\(open)", headers: session(bobToken)).status == 200)
            #expect(try await server.call("DELETE", "/1/roles/\(owned)", headers: session(aliceToken)).status == 200)
            #expect(try await server.call("DELETE", "/1/roles/\(editors)", master: true).status == 200)
            #expect(code(try await server.call("GET", "/1/roles/\(owned)")) == 101)
        }
    }

    @Test("/1/classes/_Role reads roles, and its writes are the role service's, with the role rules")
    func managedClass() async throws {
        try await withTestServer(security: Self.clientRoles) { server in
            let id = try await createRole(server, ["name": "Moderators"])
            let read = try await server.call("GET", "/1/classes/_Role/\(id)")
            #expect(read.json?["name"] == "Moderators")
            let write = try await server.call("POST", "/1/classes/_Role", json: ["name": "Editors"])
            #expect(write.status == 201)
            #expect(code(try await server.call("POST", "/1/classes/_Role", json: ["name": "moderators"])) == 139)
            let update = try await server.call("PUT", "/1/classes/_Role/\(id)", json: ["name": "Sneaky"])
            #expect(code(update) == 139)
        }
    }
}
