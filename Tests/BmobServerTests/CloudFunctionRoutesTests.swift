import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Testing

/// Swift cloud functions through both doors: REST `POST /1/functions/<name>` and native `/8/functions`; who called,
/// parameters as JSON or as strings, the answers for unknown functions, refusals, crashes and bad input.
@Suite struct CloudFunctionRoutesTests {
    private static var functions: CloudFunctions {
        var functions = CloudFunctions()
        functions.register("echo") { request in
            ["params": .object(request.params), "user": request.userId.map(JSONValue.string) ?? .null,
             "master": .bool(request.isMaster), "app": .string(request.applicationId)]
        }
        functions.register("refuse") { _ in throw CloudFunctionError(code: 142, message: "not today") }
        functions.register("visibleNotes") { request in .int(Int64(try await request.data.find("Note").count)) }
        functions.register("allNotes") { request in .int(Int64(try await request.data.asMaster.find("Note").count)) }
        functions.register("addNote") { request in
            let objectId = try await request.data.create("Note", ["title": request.params["title"] ?? "untitled"])
            return .object(try await request.data.get("Note", objectId: objectId))
        }
        functions.register("readNote") { request in
            .object(try await request.data.get("Note", objectId: request.params["id"]?.stringValue ?? ""))
        }
        functions.register("typed") { request in
            struct Input: Decodable {
                let name: String
                let times: Int
            }
            let input = try request.params(as: Input.self)
            request.log("repeating \(input.name)")
            return .string(String(repeating: input.name, count: input.times))
        }
        functions.register("crash") { _ in
            struct Secret: Error { let detail = "internal detail" }
            throw Secret()
        }
        return functions
    }

    private func withFunctionServer(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try await TestServer.start(functions: Self.functions, configure: configure)
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("REST: the result, the caller, parameters with their JSON types, an empty body")
    func rest() async throws {
        try await withFunctionServer { server in
            let (userId, token) = try await server.signUpUser("caller", password: "secret123")
            let typed = try await server.call(
                "POST", "/1/functions/echo", json: ["n": 42, "flag": true, "list": [1, 2]],
                headers: [("X-Bmob-Session-Token", token)])
            #expect(typed.status == 200)
            let result = try #require(typed.json?["result"])
            #expect(result["params"] == ["n": 42, "flag": true, "list": [1, 2]])
            #expect(result["user"]?.stringValue == userId)
            #expect(result["master"] == false)
            #expect(result["app"]?.stringValue == TestServer.applicationId)
            let empty = try await server.request("POST", "/1/functions/echo", headers: server.appHeaders)
            #expect(empty.json?["result"]?["params"] == [:])
            let master = try await server.call("POST", "/1/functions/echo", json: [:], master: true)
            #expect(master.json?["result"]?["master"] == true)
        }
    }

    @Test("REST with functionParamsAsStrings, and the native door always: every parameter a string")
    func stringParameters() async throws {
        try await withFunctionServer(configure: { $0.functionParamsAsStrings = true }) { server in
            let rest = try await server.call("POST", "/1/functions/echo", json: ["n": 42, "s": "x", "o": ["a": nil]])
            #expect(rest.json?["result"]?["params"] == ["n": "42", "s": "x", "o": #"{"a":null}"#])
        }
        try await withFunctionServer { server in
            let native = try await NativeTestClient(server).call("functions", ["data": ["_e": "echo", "n": 42, "b": false]])
            #expect(native.data["results"]?["params"] == ["n": "42", "b": "false"])
        }
    }

    @Test("the data API runs as the caller (ACL applied) or as master; typed parameters decode or answer 107")
    func dataAndTypedParameters() async throws {
        try await withFunctionServer { server in
            let (ownerId, owner) = try await server.signUpUser("owner", password: "secret123")
            let (_, other) = try await server.signUpUser("other", password: "secret123")
            let ownerHeaders = [("X-Bmob-Session-Token", owner)]
            let otherHeaders = [("X-Bmob-Session-Token", other)]
            let secret = try await server.call(
                "POST", "/1/classes/Note", json: ["title": "mine", "ACL": .object([ownerId: ["read": true, "write": true]])],
                headers: ownerHeaders)
            let secretId = try #require(secret.json?["objectId"]?.stringValue)
            _ = try await server.call("POST", "/1/classes/Note", json: ["title": "public"])

            #expect(try await server.call("POST", "/1/functions/visibleNotes", json: [:], headers: otherHeaders).json?["result"] == 1)
            #expect(try await server.call("POST", "/1/functions/visibleNotes", json: [:], headers: ownerHeaders).json?["result"] == 2)
            #expect(try await server.call("POST", "/1/functions/allNotes", json: [:], headers: otherHeaders).json?["result"] == 2)
            let hidden = try await server.call(
                "POST", "/1/functions/readNote", json: ["id": .string(secretId)], headers: otherHeaders)
            #expect(hidden.json?["code"] == 101)
            let seen = try await server.call(
                "POST", "/1/functions/readNote", json: ["id": .string(secretId)], headers: ownerHeaders)
            #expect(seen.json?["result"]?["title"] == "mine")

            let added = try await server.call(
                "POST", "/1/functions/addNote", json: ["title": "from a function"], headers: ownerHeaders)
            #expect(added.json?["result"]?["title"] == "from a function")
            let addedId = try #require(added.json?["result"]?["objectId"]?.stringValue)
            // The journal records the function as the door, and the user it acted for as the caller.
            let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            let journal = try await runtime.store.journal(after: 0, limit: 1000)
            let entry = try #require(journal.first { $0.objectId == addedId })
            #expect(entry.door == "function:addNote")
            #expect(entry.caller == ownerId)

            let typed = try await server.call("POST", "/1/functions/typed", json: ["name": "ab", "times": 3])
            #expect(typed.json?["result"] == "ababab")
            let untyped = try await server.call("POST", "/1/functions/typed", json: ["name": "ab"])
            #expect(untyped.json?["code"] == 107)
        }
    }

    @Test("unknown functions 311, refusals their code, crashes 310 without their detail; bad input")
    func failures() async throws {
        try await withFunctionServer { server in
            let unknown = try await server.call("POST", "/1/functions/nothing", json: [:])
            #expect(unknown.json?["code"] == 311)
            let refused = try await server.call("POST", "/1/functions/refuse", json: [:])
            #expect(refused.json?["code"] == 142)
            #expect(refused.json?["error"] == "not today")
            let crashed = try await server.call("POST", "/1/functions/crash", json: [:])
            #expect(crashed.json?["code"] == 310)
            #expect(crashed.json?["error"]?.stringValue?.contains("internal detail") == false)
            // A long name is refused without being echoed whole.
            let long = String(repeating: "f", count: 5000)
            let named = try await server.call("POST", "/1/functions/\(long)", json: [:])
            #expect(named.json?["code"] == 311)
            #expect((named.json?["error"]?.stringValue?.utf8.count ?? .max) < 300)
            // Not a JSON object.
            let array = try await server.request(
                "POST", "/1/functions/echo", headers: server.appHeaders + [("Content-Type", "application/json")],
                body: Array("[1,2]".utf8))
            #expect(array.json?["code"] == 107)
            let garbage = try await server.request(
                "POST", "/1/functions/echo", headers: server.appHeaders + [("Content-Type", "application/json")],
                body: Array("{\"a\":".utf8))
            #expect(garbage.json?["code"] == 107)
            // No app keys: the function never runs.
            let anonymous = try await server.request("POST", "/1/functions/echo", body: Array("{}".utf8))
            #expect(anonymous.status == 401)
            // The native door without a name.
            let nameless = try await NativeTestClient(server).call("functions", ["data": ["n": 1]])
            #expect(nameless.code == 311)
        }
    }
}
