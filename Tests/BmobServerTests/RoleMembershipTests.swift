import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Testing

/// `RoleService.roleNames(forUserId:transaction:)` and `CallerResolver.caller(_:)` against the test app's real
/// store: users sign up over HTTP, roles are written through the service.
@Suite("Role membership and access scope")
struct RoleMembershipTests {
    /// The service, the test app's runtime, and contexts for the master key and for a session.
    private struct Harness {
        var roles: RoleService
        var runtime: AppRuntime

        init(_ server: TestServer) async throws {
            runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            let users = UserService(clock: .system, hashing: server.server.context.blockingPool)
            roles = RoleService(clock: .system, users: users)
        }

        var master: AppContext { AppContext(runtime: runtime, isMaster: true, sessionToken: nil) }

        func caller(_ token: String?) -> AppContext {
            AppContext(runtime: runtime, isMaster: false, sessionToken: token)
        }

        /// Creates a role with the master key and returns its id.
        func role(_ name: String, users: [String] = [], children: [String] = []) async throws -> String {
            var body: [String: JSONValue] = ["name": .string(name)]
            if !users.isEmpty { body["users"] = Self.add(users, "_User") }
            if !children.isEmpty { body["roles"] = Self.add(children, "_Role") }
            return try await roles.create(body: body, context: master).objectId
        }

        /// Applies an update with the master key.
        func update(_ roleId: String, _ body: [String: JSONValue]) async throws {
            _ = try await roles.update(objectId: roleId, body: body, context: master)
        }

        func names(_ userId: String) async throws -> Set<String> {
            try await runtime.store.read { transaction in
                try RoleService.roleNames(forUserId: userId, transaction: transaction)
            }
        }

        static func add(_ ids: [String], _ className: String) -> JSONValue {
            ["__op": "AddRelation", "objects": .array(ids.map { pointer($0, className) })]
        }

        static func remove(_ ids: [String], _ className: String) -> JSONValue {
            ["__op": "RemoveRelation", "objects": .array(ids.map { pointer($0, className) })]
        }

        static func pointer(_ id: String, _ className: String) -> JSONValue {
            ["__type": "Pointer", "className": .string(className), "objectId": .string(id)]
        }
    }

    /// Signs up and returns (objectId, sessionToken).
    private func signUp(_ server: TestServer, _ username: String) async throws -> (String, String) {
        try await server.signUpUser(username, password: "pw")
    }

    @Test("a user belongs to the roles whose users relation holds it, and to no other")
    func directMembership() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            let (bob, _) = try await signUp(server, "bob")
            let (carol, _) = try await signUp(server, "carol")
            #expect(try await harness.names(alice) == [])  // no role exists yet
            _ = try await harness.role("Moderators", users: [alice, bob])
            _ = try await harness.role("Writers", users: [alice])
            _ = try await harness.role("Empty")
            #expect(try await harness.names(alice) == ["Moderators", "Writers"])
            #expect(try await harness.names(bob) == ["Moderators"])
            #expect(try await harness.names(carol) == [])
            #expect(try await harness.names("nosuchuser") == [])
        }
    }

    @Test("members of a child role inherit every ancestor, two levels up, but not the other way round")
    func inheritance() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            let (bob, _) = try await signUp(server, "bob")
            let (carol, _) = try await signUp(server, "carol")
            let moderators = try await harness.role("Moderators", users: [alice])
            let admins = try await harness.role("Admins", users: [bob], children: [moderators])
            _ = try await harness.role("Owners", users: [carol], children: [admins])
            _ = try await harness.role("Unrelated", children: [])
            #expect(try await harness.names(alice) == ["Moderators", "Admins", "Owners"])
            #expect(try await harness.names(bob) == ["Admins", "Owners"])
            #expect(try await harness.names(carol) == ["Owners"])
        }
    }

    @Test("a cycle of child roles (A → B → A) ends and yields each role once")
    func cycle() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            let a = try await harness.role("A", users: [alice])
            let b = try await harness.role("B", children: [a])
            try await harness.update(a, ["roles": Harness.add([b], "_Role")])
            let selfish = try await harness.role("Self", users: [alice])
            try await harness.update(selfish, ["roles": Harness.add([selfish], "_Role")])
            #expect(try await harness.names(alice) == ["A", "B", "Self"])
        }
    }

    @Test("parents are followed at most 16 levels up")
    func depthLimit() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            var child = try await harness.role("Level0", users: [alice])
            for level in 1...20 {
                child = try await harness.role("Level\(level)", children: [child])
            }
            let names = try await harness.names(alice)
            #expect(names == Set((0...RoleService.maximumDepth).map { "Level\($0)" }))
        }
    }

    @Test("removing a user or a child role takes effect at once")
    func removal() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            let (bob, _) = try await signUp(server, "bob")
            let moderators = try await harness.role("Moderators", users: [alice, bob])
            let admins = try await harness.role("Admins", children: [moderators])
            #expect(try await harness.names(bob) == ["Moderators", "Admins"])

            try await harness.update(moderators, ["users": Harness.remove([bob], "_User")])
            #expect(try await harness.names(bob) == [])
            #expect(try await harness.names(alice) == ["Moderators", "Admins"])

            try await harness.update(admins, ["roles": Harness.remove([moderators], "_Role")])
            #expect(try await harness.names(alice) == ["Moderators"])

            try await harness.roles.delete(objectId: moderators, context: harness.master)
            #expect(try await harness.names(alice) == [])
        }
    }

    @Test("scope: master key, anonymous, a bad token, a user without roles, a user with inherited roles")
    func scope() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, aliceToken) = try await signUp(server, "alice")
            let (bob, bobToken) = try await signUp(server, "bob")
            let moderators = try await harness.role("Moderators", users: [alice])
            _ = try await harness.role("Admins", children: [moderators])

            #expect(try await harness.roles.users.callers.caller(harness.master).scope == .master)
            // The master key wins even with a session token.
            let masterWithSession = AppContext(runtime: harness.runtime, isMaster: true, sessionToken: aliceToken)
            #expect(try await harness.roles.users.callers.caller(masterWithSession).scope == .master)
            #expect(try await harness.roles.users.callers.caller(harness.caller(nil)).scope == .anonymous)
            #expect(try await harness.roles.users.callers.caller(harness.caller("")).scope == .anonymous)
            #expect(try await harness.roles.users.callers.caller(harness.caller("not-a-session-token")).scope == .anonymous)

            let bobScope = try await harness.roles.users.callers.caller(harness.caller(bobToken)).scope
            #expect(bobScope == .grantees(["*", bob]))
            #expect(bobScope.userId == bob)

            let aliceScope = try await harness.roles.users.callers.caller(harness.caller(aliceToken)).scope
            #expect(aliceScope == .grantees(["*", alice, "role:Moderators", "role:Admins"]))
            #expect(aliceScope.userId == alice)

            // After logout the token no longer names a user.
            let logout = try await server.call("POST", "/1/logout", headers: [("X-Bmob-Session-Token", aliceToken)])
            #expect(logout.status == 200)
            #expect(try await harness.roles.users.callers.caller(harness.caller(aliceToken)).scope == .anonymous)
        }
    }

    @Test("service rules without HTTP: names are unique and set once; members must point to the right class")
    func serviceRules() async throws {
        try await withTestServer { server in
            let harness = try await Harness(server)
            let (alice, _) = try await signUp(server, "alice")
            let id = try await harness.role("Moderators")
            await #expect(throws: BmobAPIError(.invalidRoleName, "duplicate role name: Moderators")) {
                _ = try await harness.role("Moderators")
            }
            await #expect(throws: BmobAPIError(.invalidRoleName, "a role's name can be set only once")) {
                try await harness.update(id, ["name": "Renamed"])
            }
            let wrongClass = await #expect(throws: BmobAPIError.self) {
                try await harness.update(id, ["users": Harness.add([alice], "Player")])
            }
            #expect(wrongClass?.code == .incorrectType)
            #expect(try await harness.names(alice) == [])
        }
    }
}
