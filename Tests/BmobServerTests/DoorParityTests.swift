import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Testing

/// The same operations through REST, `/8/` and `/1/batch` give the same outcomes (success, or the same Bmob
/// error code), leave the same objects behind and write the same journal rows, for every class kind (a plain
/// class, `_User`, `_Role`, `_Installation`) and every permission outcome (allowed, class permissions closed,
/// ACL closed, missing object). The native door has no master key, so master-key cases compare REST and batch.
@Suite("Door parity")
struct DoorParityTests {
    /// A door.
    enum Door: String, CaseIterable, Sendable {
        case rest, native, batch
    }

    /// Who sends the request.
    enum Who: Sendable {
        case anonymous, user, master
    }

    /// What a door answered, in protocol-neutral terms.
    enum Outcome: Equatable, CustomStringConvertible {
        case success
        case error(Int64)

        var description: String {
            switch self {
            case .success: "success"
            case .error(let code): "error \(code)"
            }
        }
    }

    /// One object operation.
    enum Step: Sendable {
        case create(String, JSONValue)
        case update(String, String, JSONValue)
        case delete(String, String)
        case get(String, String)
    }

    /// Sends steps through the doors, as anyone, the master key or the user of `token`.
    struct Doors {
        let server: TestServer
        let token: String

        /// Runs `step` through `door` as `who`.
        func run(_ step: Step, through door: Door, as who: Who) async throws -> Outcome {
            switch door {
            case .rest:
                let (method, path, body) = DoorParityTests.rest(step)
                let response = try await server.call(
                    method, path, json: body, master: who == .master,
                    headers: who == .user ? [("X-Bmob-Session-Token", token)] : [])
                if (200..<300).contains(response.status) { return .success }
                return .error(response.json?["code"]?.int64Value ?? -1)
            case .batch:
                let (method, path, body) = DoorParityTests.rest(step)
                var element: [String: JSONValue] = ["method": .string(method), "path": .string(path)]
                if let body { element["body"] = body }
                if who == .user { element["token"] = .string(token) }
                let response = try await server.call(
                    "POST", "/1/batch", json: ["requests": [.object(element)]], master: who == .master)
                guard let item = response.json?.arrayValue?.first else {
                    throw TestFailure("batch: \(response.status) \(response.text)")
                }
                if item["success"] != nil { return .success }
                return .error(item["error"]?["code"]?.int64Value ?? -1)
            case .native:
                precondition(who != .master, "the native door has no master key")
                var call: [String: JSONValue] = [:]
                let route: String
                switch step {
                case .create(let className, let body):
                    (route, call["c"], call["data"]) = ("create", .string(className), body)
                case .update(let className, let objectId, let body):
                    (route, call["c"], call["objectId"], call["data"]) = (
                        "update", .string(className), .string(objectId), body
                    )
                case .delete(let className, let objectId):
                    (route, call["c"], call["objectId"]) = ("delete", .string(className), .string(objectId))
                case .get(let className, let objectId):
                    (route, call["c"], call["objectId"]) = ("find", .string(className), .string(objectId))
                }
                if who == .user { call["sessionToken"] = .string(token) }
                let answer = try await NativeTestClient(server).call(route, .object(call))
                return answer.code == 200 ? .success : .error(Int64(answer.code))
            }
        }

    }

    static func rest(_ step: Step) -> (String, String, JSONValue?) {
        func path(_ className: String, _ objectId: String? = nil) -> String {
            let base =
                switch className {
                case "_User": "/1/users"
                case "_Role": "/1/roles"
                default: "/1/classes/\(className)"
                }
            return objectId.map { "\(base)/\($0)" } ?? base
        }
        switch step {
        case .create(let className, let body): return ("POST", path(className), body)
        case .update(let className, let objectId, let body): return ("PUT", path(className, objectId), body)
        case .delete(let className, let objectId): return ("DELETE", path(className, objectId), nil)
        case .get(let className, let objectId): return ("GET", path(className, objectId), nil)
        }
    }

    /// One case: a fresh object per door (made by `setup` with the master key), the step to run on it, who runs
    /// it, and which doors can carry it.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var setup: (@Sendable (TestServer) async throws -> String)?
        var step: @Sendable (String) -> Step
        var who: Who
        var expected: Outcome

        var description: String { name }
        var doors: [Door] { who == .master ? [.rest, .batch] : Door.allCases }
    }

    static func object(_ className: String, _ body: JSONValue) -> @Sendable (TestServer) async throws -> String {
        { server in
            let response = try await server.call("POST", "/1/classes/\(className)", json: body, master: true)
            guard let id = response.json?["objectId"]?.stringValue else { throw TestFailure("setup: \(response.text)") }
            return id
        }
    }

    static let cases: [Case] = [
        Case(
            name: "create in an open class", step: { _ in .create("Open", ["n": 1]) }, who: .anonymous,
            expected: .success),
        Case(
            name: "create where create is closed", step: { _ in .create("Closed", ["n": 1]) }, who: .user,
            expected: .error(501)),
        Case(
            name: "create with the master key where create is closed", step: { _ in .create("Closed", ["n": 1]) },
            who: .master, expected: .success),
        Case(
            name: "create in a bad class name", step: { _ in .create("bad-class", ["n": 1]) }, who: .anonymous,
            expected: .error(103)),
        Case(
            name: "create a field of the wrong type", step: { _ in .create("Open", ["n": "x"]) }, who: .anonymous,
            expected: .error(111)),
        Case(
            name: "get a public object", setup: object("Open", ["n": 1]), step: { .get("Open", $0) }, who: .anonymous,
            expected: .success),
        Case(
            name: "get a private object", setup: object("Open", ["n": 1, "ACL": [:]]), step: { .get("Open", $0) },
            who: .user, expected: .error(101)),
        Case(
            name: "get a missing object", step: { _ in .get("Open", "nosuchobject") }, who: .anonymous,
            expected: .error(101)),
        Case(
            name: "update a public object", setup: object("Open", ["n": 1]), step: { .update("Open", $0, ["n": 2]) },
            who: .anonymous, expected: .success),
        Case(
            name: "update a private object", setup: object("Open", ["n": 1, "ACL": [:]]),
            step: { .update("Open", $0, ["n": 2]) }, who: .user, expected: .error(101)),
        Case(
            name: "update where update is closed", setup: object("Closed", ["n": 1]),
            step: { .update("Closed", $0, ["n": 2]) }, who: .anonymous, expected: .error(501)),
        Case(
            name: "delete a public object", setup: object("Open", ["n": 1]), step: { .delete("Open", $0) },
            who: .anonymous, expected: .success),
        Case(
            name: "delete a private object", setup: object("Open", ["n": 1, "ACL": [:]]), step: { .delete("Open", $0) },
            who: .anonymous, expected: .error(101)),
        Case(
            name: "sign up",
            step: { _ in
                .create("_User", ["username": .string("u-\(UInt32.random(in: 0...UInt32.max))"), "password": "pw"])
            }, who: .anonymous, expected: .success),
        Case(
            name: "sign up without a password", step: { _ in .create("_User", ["username": "nopassword"]) },
            who: .anonymous, expected: .error(108)),
        Case(
            name: "update another user",
            setup: { server in
                try await server.signUpUser("other-\(UInt32.random(in: 0...UInt32.max))", password: "pw").0
            }, step: { .update("_User", $0, ["nick": "x"]) }, who: .user, expected: .error(206)),
        Case(
            name: "create a role without the master key",
            step: { _ in .create("_Role", ["name": .string("R\(UInt32.random(in: 0...UInt32.max))")]) }, who: .user,
            expected: .error(501)),
        Case(
            name: "create a role with the master key",
            step: { _ in .create("_Role", ["name": .string("R\(UInt32.random(in: 0...UInt32.max))")]) }, who: .master,
            expected: .success),
        Case(
            name: "create a role with a bad name", step: { _ in .create("_Role", ["name": "bad!"]) }, who: .master,
            expected: .error(139)),
        Case(
            name: "write an installation", step: { _ in .create("_Installation", ["deviceType": "ios"]) },
            who: .anonymous, expected: .error(103)),
    ]

    @Test("every case gives the same outcome through every door", arguments: cases)
    func sameOutcome(_ parityCase: Case) async throws {
        try await withTestServer { server in
            let (_, token) = try await server.signUpUser("parity", password: "pw")
            let parity = Doors(server: server, token: token)
            _ = try await server.call(
                "POST", "/1/schemas/Closed", json: ["classLevelPermissions": ["create": [:], "update": [:]]],
                master: true)
            _ = try await server.call("POST", "/1/classes/Open", json: ["n": 0], master: true)
            for door in parityCase.doors {
                let target = try await parityCase.setup?(server) ?? ""
                let outcome = try await parity.run(parityCase.step(target), through: door, as: parityCase.who)
                #expect(outcome == parityCase.expected, "\(parityCase) through \(door.rawValue): \(outcome)")
            }
        }
    }

    @Test("the same writes leave the same objects and journal rows whichever door they came through")
    func sameStateAndJournal() async throws {
        try await withTestServer { server in
            let (userId, token) = try await server.signUpUser("parity", password: "pw")
            let parity = Doors(server: server, token: token)
            let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            var journals: [Door: [String]] = [:]
            var states: [Door: JSONValue] = [:]
            var doors: [Door: [String]] = [:]
            for door in Door.allCases {
                let className = "Parity_\(door.rawValue)"
                let before = try await runtime.store.journal(after: 0, limit: 100_000).last?.seq ?? 0
                #expect(
                    try await parity.run(.create(className, ["n": 1, "tags": ["a"]]), through: door, as: .user)
                        == .success)
                let id = try #require(
                    try await server.call("GET", "/1/classes/\(className)", master: true).json?["results"]?.arrayValue?
                        .first?["objectId"]?.stringValue)
                #expect(
                    try await parity.run(
                        .update(
                            className, id,
                            ["n": ["__op": "Increment", "amount": 2], "tags": ["__op": "Add", "objects": ["b"]]]),
                        through: door, as: .user) == .success)
                var state =
                    try await server.call("GET", "/1/classes/\(className)/\(id)", master: true).json?.objectValue ?? [:]
                for key in ["objectId", "createdAt", "updatedAt"] { state[key] = nil }
                states[door] = .object(state)
                #expect(try await parity.run(.delete(className, id), through: door, as: .user) == .success)
                let entries = try await runtime.store.journal(after: before, limit: 100_000)
                journals[door] = entries.map { "\($0.op) by \($0.caller ?? "nil")" }
                doors[door] = entries.map { $0.door ?? "nil" }
            }
            #expect(states[.rest] == ["n": 3, "tags": ["a", "b"]])
            #expect(states[.native] == states[.rest])
            #expect(states[.batch] == states[.rest])
            // The class's creation (`schema`), then the object's create, update and delete, each by the user.
            #expect(journals[.rest] == ["schema by \(userId)", "create by \(userId)", "update by \(userId)", "delete by \(userId)"])
            #expect(journals[.native] == journals[.rest])
            #expect(journals[.batch] == journals[.rest])
            #expect(doors[.native] == ["native", "native", "native", "native"])
            #expect(doors[.rest] == ["rest", "rest", "rest", "rest"])
            #expect(doors[.batch] == ["rest", "rest", "rest", "rest"])
        }
    }

    @Test("Bmob's official Swift SDK shapes: a top-level count beside data.where, a batch read from top-level results")
    func officialSDKShapes() async throws {
        try await withTestServer { server in
            for n in 1...3 { _ = try await server.create("Shape", ["n": .int(Int64(n))]) }
            let client = NativeTestClient(server)
            let count = try await client.call(
                "find", ["c": "Shape", "count": 1, "limit": 0, "data": ["where": ["n": ["$gt": 1]]]])
            #expect(count.code == 200)
            #expect(count.data == ["count": 2])
            let batch = try await client.call(
                "batch",
                [
                    "requests": [
                        ["method": "create", "c": "Shape", "data": ["n": 9]],
                        ["method": "delete", "c": "Shape", "objectId": "nosuch"],
                    ]
                ])
            #expect(batch.data["results"]?.arrayValue?.count == 2)
            #expect(batch.envelope["results"] == batch.data["results"])
            #expect(batch.envelope["results"]?.arrayValue?.first?["success"]?["objectId"] != nil)
            #expect(batch.envelope["results"]?.arrayValue?.last?["error"]?["code"] == 101)
        }
    }
}
