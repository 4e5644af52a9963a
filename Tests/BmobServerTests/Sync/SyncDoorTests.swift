import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// Runs of `items:groupRuns`, for the test that writes elsewhere re-run nothing.
private let groupRuns = Atomic<Int>(0)

/// The sync door end to end over real sockets: live queries of the built-in class functions and of Swift
/// functions, mutations and their ordering against transitions, identities and their ACLs, exactly-once
/// mutations, and hostile input.
@Suite("Sync door: live queries, mutations, actions")
struct SyncDoorTests {
    /// A server with the functions the tests use.
    static var functions: CloudFunctions {
        var functions = CloudFunctions()
        functions.query("notes:best", args: ["limit": .optional(.int)]) { context, args in
            let limit = Int(args["limit"]?.int64Value ?? 2)
            return .array(try context.db.list("notes", order: "-likes", limit: limit).map(JSONValue.object))
        }
        functions.query("items:groupRuns", args: ["group": .int]) { context, args in
            let runs = groupRuns.add(1, ordering: .relaxed).newValue
            let items = try context.db.list("items", where: ["group": args["group"]!])
            return ["runs": .int(Int64(runs)), "count": .int(Int64(items.count))]
        }
        functions.query("notes:mine") { context, _ in
            guard let userId = context.userId else { return [] }
            return .array(try context.db.list("notes", where: ["owner": .string(userId)]).map(JSONValue.object))
        }
        functions.mutation("notes:addTwiceThenFail", args: ["text": .string]) { context, args in
            try context.db.insert("notes", ["text": args["text"]!])
            try context.db.insert("notes", ["text": args["text"]!])
            throw SyncFunctionError("refused on purpose", data: ["why": "test"])
        }
        functions.mutation("notes:like", args: ["id": .id]) { context, args in
            let id = args["id"]!.stringValue!
            guard try context.db.get("notes", objectId: id) != nil else { throw SyncFunctionError("no such note") }
            try context.db.patch("notes", objectId: id, ["likes": ["__op": "Increment", "amount": 1]])
            return .null
        }
        functions.action("notes:summary") { context, _ in
            let notes = try await context.runQuery("notes:list")
            _ = try await context.runMutation("notes:add", ["text": "from an action"])
            return .int(Int64(notes.arrayValue?.count ?? -1))
        }
        return functions
    }

    private func withServer(_ body: (TestServer) async throws -> Void) async throws {
        try await withTestServer(functions: Self.functions, body)
    }

    @Test("a built-in list is live: its first result, then every write from any door, in a chain of transitions")
    func builtInListIsLive() async throws {
        try await withServer { server in
            let client = try await SyncTestClient.connect(server)
            try await client.subscribe(0, "notes:list", ["order": "createdAt"])
            #expect(try await client.nextValue(0) == [])
            _ = try await server.create("notes", ["text": "over REST"])
            let first = try await client.nextValue(0)
            #expect(first.arrayValue?.map { $0["text"] } == ["over REST"])
            try await client.mutation(1, "notes:add", ["text": "over sync"])
            let response = try await client.mutationResponse(1)
            #expect(try response.value.stringValue?.isEmpty == false)
            let second = try await client.nextValue(0)
            #expect(second.arrayValue?.map { $0["text"] } == ["over REST", "over sync"])
            #expect(client.version.ts >= (response.ts ?? .max))
        }
    }

    @Test("a mutation's answer comes before any transition holding its writes, and a transition reaches its ts")
    func mutationResponseComesFirst() async throws {
        try await withServer { server in
            let client = try await SyncTestClient.connect(server)
            try await client.subscribe(0, "notes:list")
            _ = try await client.nextValue(0)
            for requestId in Int64(1)...5 {
                try await client.mutation(requestId, "notes:add", ["text": .string("n\(requestId)")])
            }
            var answered: Set<Int64> = []
            var seen = 0
            while answered.count < 5 || seen < 5 {
                switch try await client.next() {
                case .mutationResponse(let response):
                    #expect(response.ts != nil, "\(response)")
                    answered.insert(response.requestId)
                case .transition(_, _, let modifications):
                    for case .updated(0, let value, _, _) in modifications {
                        let texts = value.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
                        // Every note in a result was answered already.
                        for text in texts { #expect(answered.contains(Int64(text.dropFirst())!), "\(text) before its answer") }
                        seen = texts.count
                    }
                default:
                    break
                }
            }
        }
    }

    @Test("a mutation on a socket without live queries is followed by a transition reaching its ts")
    func mutationWithoutQueriesReachesItsTs() async throws {
        try await withServer { server in
            let client = try await SyncTestClient.connect(server)
            try await client.mutation(7, "notes:add", ["text": "alone"])
            let response = try await client.mutationResponse(7)
            _ = try await client.transition(reaching: try #require(response.ts))
            #expect(client.version.ts >= response.ts!)
        }
    }

    @Test("each subscriber's results follow its own ACL, and a token that does not check out gets AuthError")
    func resultsFollowEachCallersACL() async throws {
        try await withServer { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada")
            let (_, bobToken) = try await server.signUpUser("bob", password: "pw-bob")
            let adaClient = try await SyncTestClient.connect(server)
            try await adaClient.authenticate(adaToken)
            let confirmed = try await adaClient.next("AuthOk") { if case .authOk(_, let id) = $0 { id } else { nil } }
            #expect(confirmed == ada)
            let bobClient = try await SyncTestClient.connect(server)
            try await bobClient.authenticate(bobToken)
            let anonymous = try await SyncTestClient.connect(server)
            for client in [adaClient, bobClient, anonymous] {
                try await client.subscribe(0, "notes:list")
                #expect(try await client.nextValue(0) == [])
            }
            try await adaClient.mutation(1, "notes:add", ["text": "ada's secret", "ACL": [ada: ["read": true, "write": true]]])
            _ = try await adaClient.mutationResponse(1)
            #expect(try await adaClient.nextValue(0).arrayValue?.count == 1)
            _ = try await server.create("notes", ["text": "public"])
            #expect(try await bobClient.nextValue(0).arrayValue?.map { $0["text"] } == ["public"])
            #expect(try await anonymous.nextValue(0).arrayValue?.map { $0["text"] } == ["public"])

            let stranger = try await SyncTestClient.connect(server)
            try await stranger.authenticate("not-a-token")
            let refused = try await stranger.next("AuthError") { message -> Bool? in
                if case .authError(_, _, let attempted) = message { return attempted }
                return nil
            }
            #expect(refused)
        }
    }

    @Test("a user's live queries move with its identity: signing out hides what only the user may read")
    func identityChangeRerunsQueries() async throws {
        try await withServer { server in
            let (ada, token) = try await server.signUpUser("ada", password: "pw-ada")
            _ = try await server.create("notes", ["text": "mine", "owner": .string(ada), "ACL": [ada: ["read": true]]])
            let client = try await SyncTestClient.connect(server)
            try await client.authenticate(token)
            try await client.subscribe(0, "notes:list")
            #expect(try await client.nextValue(0).arrayValue?.count == 1)
            try await client.authenticate(nil)
            #expect(try await client.nextValue(0) == [])
            #expect(client.version.identity == 2)
        }
    }

    @Test("Swift functions: validated arguments, a live query of another order, a transactional mutation, an action")
    func swiftFunctions() async throws {
        try await withServer { server in
            let client = try await SyncTestClient.connect(server)
            try await client.subscribe(0, "notes:best", ["limit": 1])
            #expect(try await client.nextValue(0) == [])
            try await client.subscribe(1, "notes:best", ["limit": "one"])
            guard case .failure(let invalid) = try await client.nextResult(1) else { throw TestFailure("bad args ran") }
            #expect(invalid.message == "args.limit must be a whole number")
            try await client.subscribe(2, "notes:add")
            guard case .failure(let notQuery) = try await client.nextResult(2) else { throw TestFailure("a mutation ran live") }
            #expect(notQuery.message == "notes:add is a mutation, not a query")

            let low = try await server.create("notes", ["text": "low", "likes": 1])
            #expect(try await client.nextValue(0).arrayValue?.map { $0["text"] } == ["low"])
            _ = try await server.create("notes", ["text": "high", "likes": 5])
            #expect(try await client.nextValue(0).arrayValue?.map { $0["text"] } == ["high"])
            for round in Int64(1)...5 {
                try await client.mutation(round, "notes:like", ["id": .string(low)])
                _ = try await client.mutationResponse(round)
            }
            #expect(try await client.nextValue(0).arrayValue?.map { $0["text"] } == ["low"])

            try await client.mutation(10, "notes:addTwiceThenFail", ["text": "never"])
            let failed = try await client.mutationResponse(10)
            #expect(failed.outcome == .failure(message: "refused on purpose", errorData: ["why": "test"]))
            let stored = try await server.call("GET", "/1/classes/notes?where=%7B%22text%22%3A%22never%22%7D")
            #expect(stored.json?["results"] == [], "a failed mutation wrote \(stored.text)")

            try await client.action(11, "notes:summary")
            #expect(try await client.actionResponse(11).value == 2)
            try await client.action(12, "notes:list")
            let wrongKind = try await client.actionResponse(12)
            #expect(wrongKind.failure == "notes:list is a query, not an action", "\(wrongKind)")
        }
    }

    @Test("a request id runs once per client session, even when it comes again on a new socket")
    func mutationsRunOncePerRequestId() async throws {
        try await withServer { server in
            let first = try await SyncTestClient.connect(server, sessionId: "session-1")
            try await first.mutation(1, "notes:add", ["text": "once"])
            let answer = try await first.mutationResponse(1)
            await first.close()
            let again = try await SyncTestClient.connect(server, sessionId: "session-1")
            try await again.mutation(1, "notes:add", ["text": "once"])
            #expect(try await again.mutationResponse(1).value == answer.value)
            let stored = try await server.call("GET", "/1/classes/notes?count=1&limit=0")
            #expect(stored.json?["count"] == 1)
            // Another session's request 1 is its own.
            let other = try await SyncTestClient.connect(server, sessionId: "session-2")
            try await other.mutation(1, "notes:add", ["text": "once"])
            #expect(try await other.mutationResponse(1).value != answer.value)
        }
    }

    @Test("class permissions and sub-queries are checked for live queries as for REST finds")
    func permissionsAndSubQueries() async throws {
        try await withServer { server in
            let secret = try await server.call(
                "POST", "/1/schemas/secrets", json: ["className": "secrets", "classLevelPermissions": ["find": [:], "get": [:]]],
                master: true)
            #expect(secret.status == 200, "\(secret.text)")
            _ = try await server.call("POST", "/1/classes/secrets", json: ["word": "hidden"], master: true)
            let client = try await SyncTestClient.connect(server)
            try await client.subscribe(0, "secrets:list")
            guard case .failure(let direct) = try await client.nextResult(0) else { throw TestFailure("secrets listed") }
            #expect(direct.data?["code"] == 501)
            // A sub-query over the protected class is refused too, never used to learn its contents.
            try await client.subscribe(1, "notes:list", [
                "where": ["text": ["$select": ["query": ["className": "secrets", "where": [:]], "key": "word"]]],
            ])
            guard case .failure(let nested) = try await client.nextResult(1) else { throw TestFailure("sub-query ran") }
            #expect(nested.data?["code"] == 501)
        }
    }

    @Test("hostile input: a first message that is not Connect, broken versions and malformed text end the socket")
    func hostileInput() async throws {
        try await withServer { server in
            let noConnect = try await TestWebSocket.connect(port: server.port, path: "/apps/\(TestServer.applicationId)/api/1/sync")
            try await noConnect.send(text: #"{"type":"Mutation","requestId":1,"udfPath":"notes:add","args":[{}]}"#)
            #expect(try await noConnect.nextText()?.contains("FatalError") == true)
            #expect(try await noConnect.nextClose() == .policyViolation)

            for text in ["not json", #"{"type":"Nope"}"#, String(repeating: "[", count: 5000)] {
                let client = try await SyncTestClient.connect(server)
                try await client.socket.send(text: text)
                guard case .fatalError = try await client.next() else { throw TestFailure("\(text.prefix(20)) was accepted") }
            }

            let skipping = try await SyncTestClient.connect(server)
            try await skipping.send(.modifyQuerySet(baseVersion: 3, newVersion: 4, modifications: []))
            guard case .fatalError(let error) = try await skipping.next() else { throw TestFailure("a version gap was accepted") }
            #expect(error.contains("versions"))

            let unknownApp = try await server.request("POST", "/apps/nosuchapp/api/query", headers: [("Content-Type", "application/json")], body: Array(#"{"path":"notes:list"}"#.utf8))
            #expect(unknownApp.status == 404)
            #expect(unknownApp.json?["code"] != nil && unknownApp.json?["error"] != nil)
        }
    }

    @Test("bounds: live queries per socket are capped, and a result over 256 KiB goes out in chunks")
    func boundsAndChunks() async throws {
        try await withServer { server in
            let client = try await SyncTestClient.connect(server)
            // A class of its own: the creates below do not re-run these 1,000 queries.
            let path = try SyncFunctionPath(validating: "bulk:list")
            // At most 1,000 modifications a message (the codec's bound), so two messages.
            try await client.modify((0..<1000).map { .add(queryId: Int64($0), path: path, arguments: ["skip": .int(Int64($0))], journal: nil) })
            try await client.modify([.add(queryId: 1000, path: path, arguments: [:], journal: nil)])
            guard case .failure(let refused) = try await client.nextResult(1000) else { throw TestFailure("query 1000 ran") }
            #expect(refused.message == "at most 1000 live queries a socket")
            await client.close()
            let twins = try await SyncTestClient.connect(server)
            try await twins.subscribe(0, "notes:list")
            try await twins.subscribe(1, "notes:list")
            guard case .failure(let twin) = try await twins.nextResult(1) else { throw TestFailure("a twin query ran") }
            #expect(twin.message == "query 0 already runs this function with these arguments")

            let big = try await SyncTestClient.connect(server)
            try await big.subscribe(0, "notes:list", ["limit": 100])
            #expect(try await big.nextValue(0) == [])
            let text = String(repeating: "x", count: 8 * 1024)
            for index in 0..<40 { _ = try await server.create("notes", ["text": .string(text), "n": .int(Int64(index))]) }
            var count = 0
            while count < 40 { count = try await big.nextValue(0).arrayValue?.count ?? 0 }
            #expect(count == 40)
        }
    }

    @Test("a write re-runs only the live queries whose conditions its object meets, before or after")
    func writesElsewhereRerunNothing() async throws {
        try await withServer { server in
            // The class exists first: its creation is a class-wide change, which re-runs every read of it.
            _ = try await server.create("items", ["group": 1])
            let client = try await SyncTestClient.connect(server)
            try await client.subscribe(0, "items:groupRuns", ["group": 7])
            _ = try await client.nextValue(0)
            _ = try await server.create("items", ["group": 7])
            var first = try await client.nextValue(0)
            while first["count"] != 1 { first = try await client.nextValue(0) }
            let runs = try #require(first["runs"]?.int64Value)
            for _ in 0..<3 { _ = try await server.create("items", ["group": 8]) }
            _ = try await server.create("items", ["group": 7])
            let second = try await client.nextValue(0)
            #expect(second["count"] == 2)
            #expect(second["runs"]?.int64Value == runs + 1, "writes to group 8 re-ran the query")
        }
    }

    @Test("one-shot calls and password sign-in over HTTP")
    func httpCallsAndPasswordSignIn() async throws {
        try await withServer { server in
            let base = "/apps/\(TestServer.applicationId)/api"
            let json = [("Content-Type", "application/json")]
            func post(_ path: String, _ body: JSONValue, token: String? = nil) async throws -> RawHTTPResponse {
                var headers = json
                if let token { headers.append(("Authorization", "Bearer \(token)")) }
                return try await server.request("POST", base + path, headers: headers, body: body.jsonBytes)
            }
            let added = try await post("/mutation", ["path": "notes:add", "args": [["text": "http"]]])
            #expect(added.json?["status"] == "success", "\(added.text)")
            let listed = try await post("/query", ["path": "notes:list", "args": [:]])
            #expect(listed.json?["value"]?.arrayValue?.count == 1)
            let wrong = try await post("/query", ["path": "notes:add", "args": [:]])
            #expect(wrong.status == 400)
            #expect(wrong.json?["status"] == "error" && wrong.json?["code"] != nil)

            let (ada, _) = try await server.signUpUser("ada@example.com", password: "correct horse", ["email": "ada@example.com"])
            let signIn = try await post("/auth/password", ["email": "ada@example.com", "password": "correct horse"])
            #expect(signIn.json?["userId"]?.stringValue == ada)
            let token = try #require(signIn.json?["token"]?.stringValue)
            let badPassword = try await post("/auth/password", ["email": "ada@example.com", "password": "wrong"])
            #expect(badPassword.status >= 400 && badPassword.json?["code"] != nil)
            let stale = try await post("/query", ["path": "notes:list"], token: "nope")
            #expect(stale.status == 401)
            let signOut = try await post("/auth/signOut", [:], token: token)
            #expect(signOut.status == 200)
            let afterSignOut = try await post("/query", ["path": "notes:list"], token: token)
            #expect(afterSignOut.status == 401)
        }
    }

    @Test("the sign-up code flow: a code is mailed, no token until the code comes back")
    func signUpCodeFlow() async throws {
        try await withServer { server in
            let base = "/apps/\(TestServer.applicationId)/api/auth/password"
            func post(_ body: JSONValue) async throws -> RawHTTPResponse {
                try await server.request("POST", base, headers: [("Content-Type", "application/json")], body: body.jsonBytes)
            }
            let started = try await post(["email": "new@example.com", "password": "pw-new", "flow": "signUp"])
            #expect(started.json == ["token": .null, "started": true], "\(started.text)")
            let mail = try #require(try server.outbox().last { $0["kind"] == "email" && $0["to"] == "new@example.com" })
            let body = try #require(mail["body"]?.stringValue)
            let code = String(try #require(body.split(separator: " ").first { $0.count == 7 && $0.hasSuffix(".") }).dropLast())
            let wrong = try await post(["email": "new@example.com", "code": "000000", "flow": "email-verification"])
            #expect(wrong.json?["code"] == 207 || code == "000000")
            let verified = try await post(["email": "new@example.com", "password": .string(code), "flow": "email-verification"])
            let token = try #require(verified.json?["token"]?.stringValue, "\(verified.text)")
            let userId = try #require(verified.json?["userId"]?.stringValue)
            let me = try await server.call("GET", "/1/users/\(userId)", headers: [("X-Bmob-Session-Token", token)])
            #expect(me.json?["emailVerified"] == true, "\(me.text)")
            let reused = try await post(["email": "new@example.com", "code": .string(code), "flow": "email-verification"])
            #expect(reused.json?["code"] == 207)
        }
    }
}
