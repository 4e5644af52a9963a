import BmobServer
import BmobTesting
import BmobWire
import Synchronization
import Testing

/// Triggers through every door: REST, the native door and batch elements, on objects, queries and users.
@Suite struct TriggerTests {
    /// What the `after…` triggers saw, by event.
    final class Seen: Sendable {
        let events = Mutex<[String: [JSONValue]]>([:])
        func append(_ event: TriggerEvent, _ value: JSONValue) {
            events.withLock { $0[event.rawValue, default: []].append(value) }
        }
        func of(_ event: TriggerEvent) -> [JSONValue] { events.withLock { $0[event.rawValue] ?? [] } }
    }

    private static func functions(_ seen: Seen) -> CloudFunctions {
        var functions = CloudFunctions()
        functions.on(.beforeSave, className: "Score") { request in
            if case .int(let points)? = request.object?["points"], points < 0 {
                throw CloudFunctionError(code: 142, message: "points cannot be negative")
            }
            var changes: [String: JSONValue] = ["checked": true]
            if case .string(let name)? = request.object?["name"] { changes["name"] = .string(name.lowercased()) }
            if let original = request.original { changes["previousPoints"] = original["points"] ?? .null }
            return .object(changes)
        }
        functions.on(.afterSave, className: "Score") { request in
            seen.append(.afterSave, .object(request.object ?? [:]))
            return nil
        }
        functions.on(.beforeDelete, className: "Score") { request in
            if request.object?["locked"] == true { throw CloudFunctionError(code: 142, message: "locked") }
            return nil
        }
        functions.on(.afterDelete, className: "Score") { request in
            seen.append(.afterDelete, .object(request.object ?? [:]))
            return nil
        }
        functions.on(.beforeFind, className: "Score") { request in
            request.isMaster ? nil : ["hidden": ["$ne": true]]
        }
        functions.on(.afterFind, className: "Score") { request in
            .array((request.results ?? []).map { item in
                guard case .object(var fields) = item else { return item }
                fields["secret"] = nil
                return .object(fields)
            })
        }
        functions.on(.beforeLogin, className: "_User") { request in
            if request.object?["username"] == "banned" { throw CloudFunctionError(code: 142, message: "banned") }
            return nil
        }
        functions.on(.afterLogin, className: "_User") { request in
            seen.append(.afterLogin, .string(request.userId ?? ""))
            return nil
        }
        functions.on(.afterSave, className: "_User") { request in
            seen.append(.afterSave, .object(request.object ?? [:]))
            return nil
        }
        functions.on(.afterLogout, className: "_User") { request in
            seen.append(.afterLogout, .string(request.userId ?? ""))
            return nil
        }
        return functions
    }

    private func withTriggerServer(_ body: (TestServer, Seen) async throws -> Void) async throws {
        let seen = Seen()
        let server = try await TestServer.start(functions: Self.functions(seen))
        do { try await body(server, seen) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Polls for up to 5 seconds.
    private func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    @Test("beforeSave refuses or changes a write from REST, the native door and a batch; afterSave sees the row")
    func saves() async throws {
        try await withTriggerServer { server, seen in
            let refused = try await server.call("POST", "/1/classes/Score", json: ["points": -1])
            #expect(refused.json?["code"] == 142)
            #expect(refused.json?["error"] == "points cannot be negative")
            let native = try await NativeTestClient(server).call("create", ["c": "Score", "data": ["points": -5]])
            #expect(native.code == 142)
            let batch = try await server.call("POST", "/1/batch", json: ["requests": [
                ["method": "POST", "path": "/1/classes/Score", "body": ["points": -2]],
                ["method": "POST", "path": "/1/classes/Score", "body": ["points": 3, "name": "FROM BATCH"]],
            ]])
            let elements = try #require(batch.json?.arrayValue)
            #expect(elements.first?["error"]?["code"] == 142)
            let batchId = try #require(elements.last?["success"]?["objectId"]?.stringValue)
            let all = try await server.call("GET", "/1/classes/Score", master: true)
            #expect(all.json?["results"]?.arrayValue?.count == 1)

            let created = try await server.call("POST", "/1/classes/Score", json: ["points": 10, "name": "MiXeD"])
            let objectId = try #require(created.json?["objectId"]?.stringValue)
            let stored = try await server.call("GET", "/1/classes/Score/\(objectId)", master: true)
            #expect(stored.json?["name"] == "mixed")
            #expect(stored.json?["checked"] == true)
            try await eventually { seen.of(.afterSave).contains { $0["objectId"]?.stringValue == objectId } }
            let committed = try #require(seen.of(.afterSave).first { $0["objectId"]?.stringValue == objectId })
            #expect(committed["name"] == "mixed")
            #expect(committed["createdAt"] != nil)
            #expect(seen.of(.afterSave).contains { $0["objectId"]?.stringValue == batchId })

            let updated = try await server.call("PUT", "/1/classes/Score/\(objectId)", json: ["points": 11])
            #expect(updated.status == 200)
            let after = try await server.call("GET", "/1/classes/Score/\(objectId)", master: true)
            #expect(after.json?["previousPoints"] == 10)
            #expect(after.json?["points"] == 11)
        }
    }

    @Test("beforeFind narrows a query and afterFind reshapes its results; the master key is not narrowed")
    func finds() async throws {
        try await withTriggerServer { server, _ in
            for (name, hidden) in [("a", false), ("b", true), ("c", false)] {
                _ = try await server.call("POST", "/1/classes/Score", json: ["name": .string(name), "hidden": .bool(hidden), "secret": "s", "points": 1])
            }
            let found = try await server.call("GET", "/1/classes/Score?order=name")
            let results = try #require(found.json?["results"]?.arrayValue)
            #expect(results.compactMap { $0["name"]?.stringValue } == ["a", "c"])
            #expect(results.allSatisfy { $0["secret"] == nil })
            let native = try await NativeTestClient(server).call("find", ["c": "Score", "data": ["where": [:]]])
            #expect(native.data["results"]?.arrayValue?.count == 2)
            let master = try await server.call("GET", "/1/classes/Score", master: true)
            #expect(master.json?["results"]?.arrayValue?.count == 3)
            let counted = try await server.call("GET", "/1/classes/Score?count=1&limit=0")
            #expect(counted.json?["count"] == 2)
        }
    }

    @Test("beforeDelete refuses, afterDelete sees the object as it was")
    func deletes() async throws {
        try await withTriggerServer { server, seen in
            let locked = try #require(try await server.call("POST", "/1/classes/Score", json: ["locked": true, "points": 1]).json?["objectId"]?.stringValue)
            let free = try #require(try await server.call("POST", "/1/classes/Score", json: ["points": 2]).json?["objectId"]?.stringValue)
            #expect(try await server.call("DELETE", "/1/classes/Score/\(locked)").json?["code"] == 142)
            #expect(try await server.call("GET", "/1/classes/Score/\(locked)", master: true).status == 200)
            #expect(try await server.call("DELETE", "/1/classes/Score/\(free)").status == 200)
            try await eventually { seen.of(.afterDelete).contains { $0["objectId"]?.stringValue == free } }
            #expect(seen.of(.afterDelete).first?["points"] == 2)
        }
    }

    @Test("user triggers: afterSave on signup, beforeLogin refuses (and its session ends), afterLogin, afterLogout")
    func users() async throws {
        try await withTriggerServer { server, seen in
            let (userId, _) = try await server.signUpUser("player", password: "secret123")
            try await eventually { seen.of(.afterSave).contains { $0["objectId"]?.stringValue == userId } }
            let (bannedId, _) = try await server.signUpUser("banned", password: "secret123")
            let sessionsBefore = try await server.call("GET", "/1/users/\(bannedId)/sessions", master: true)
            let refused = try await server.call("GET", "/1/login?username=banned&password=secret123")
            #expect(refused.json?["code"] == 142)
            // The refused login's session is gone: the user has the sessions it had before.
            let sessionsAfter = try await server.call("GET", "/1/users/\(bannedId)/sessions", master: true)
            #expect(sessionsAfter.json?["results"]?.arrayValue?.count == sessionsBefore.json?["results"]?.arrayValue?.count)
            #expect(sessionsAfter.json?["results"]?.arrayValue != nil)
            let login = try await server.call("GET", "/1/login?username=player&password=secret123")
            let token = try #require(login.json?["sessionToken"]?.stringValue)
            try await eventually { seen.of(.afterLogin).contains(.string(userId)) }
            #expect(!seen.of(.afterLogin).contains { $0 != .string(userId) })
            let valid = try await server.call("GET", "/1/checkSession/\(userId)", headers: [("X-Bmob-Session-Token", token)])
            #expect(valid.json?["msg"] == "ok")
            _ = try await server.call("POST", "/1/logout", headers: [("X-Bmob-Session-Token", token)])
            try await eventually { seen.of(.afterLogout).contains(.string(userId)) }
        }
    }

    @Test("a trigger that crashes refuses with 310, and one that answers nonsense with 310; nothing is written")
    func brokenTriggers() async throws {
        var functions = CloudFunctions()
        functions.on(.beforeSave, className: "Crash") { _ in
            struct Boom: Error {}
            throw Boom()
        }
        functions.on(.beforeSave, className: "Nonsense") { _ in "not fields" }
        functions.on(.beforeFind, className: "Nonsense") { _ in ["$bogus": 1] }
        let server = try await TestServer.start(functions: functions)
        defer { Task { await server.stop() } }
        #expect(try await server.call("POST", "/1/classes/Crash", json: ["a": 1]).json?["code"] == 310)
        #expect(try await server.call("POST", "/1/classes/Nonsense", json: ["a": 1]).json?["code"] == 310)
        #expect(try await server.call("GET", "/1/classes/Nonsense").json?["code"] == 310)
        #expect(try await server.call("GET", "/1/classes/Crash", master: true).json?["results"] == [])
    }
}
