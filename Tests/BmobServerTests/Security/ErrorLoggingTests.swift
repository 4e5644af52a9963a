import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Testing

/// Every 5xx the server answers is logged once, at error level, with a request id, the route and the fault's
/// safe description, and the client gets the same id (an `X-Request-Id` header, and "(request <id>)" at the end
/// of the message) in Bmob's `{"code","error"}` shape: REST, the native `/8/` door and batch elements alike.
@Suite("Security: error logging")
struct SecurityErrorLoggingTests {
    /// Starts a server logging into a recorder, with one `Broken` object whose stored data nests deeper than
    /// the JSON parser reads back: fetching it fails inside the store (``StoreError/Code/corrupt``), a 500.
    private func withBrokenObject(_ body: (TestServer, RecordingLogHandler) async throws -> Void) async throws {
        let recorder = RecordingLogHandler()
        let server = try await TestServer.start(logger: Logger(label: "test", level: .info, handler: recorder))
        do {
            var deep: JSONValue = 1
            for _ in 0...JSONParser.maximumDepth { deep = ["a": deep] }
            try await server.seedObject(className: "Broken", objectId: "broken0001", fields: ["deep": deep])
            try await body(server, recorder)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The one error-level entry logged so far; records an issue unless there is exactly one.
    private func onlyError(_ recorder: RecordingLogHandler, sourceLocation: SourceLocation = #_sourceLocation)
        -> RecordingLogHandler.Entry?
    {
        let errors = recorder.entries(atLeast: .error)
        #expect(errors.count == 1, "\(errors)", sourceLocation: sourceLocation)
        return errors.first
    }

    @Test func aRestFiveHundredIsLoggedWithARequestIdTheClientSees() async throws {
        try await withBrokenObject { server, recorder in
            let response = try await server.call("GET", "/1/classes/Broken/broken0001")
            #expect(response.status == 500)
            let id = try #require(response.headers["X-Request-Id"])
            #expect(id.utf8.count == 16)
            #expect(response.json == ["code": 500, "error": .string("internal server error (request \(id))")])
            let entry = try #require(onlyError(recorder))
            #expect(entry.metadata["requestId"] == id)
            #expect(entry.message.contains("request \(id)"))
            #expect(entry.message.contains("GET /1/classes/:className/:objectId"))
            #expect(entry.message.contains("StoreError.corrupt: stored JSON is invalid"))
            // Nothing from the stored data or the SQL reaches the log line.
            #expect(!entry.message.contains("SELECT"))
            #expect(!entry.message.contains("{\"a\""))
        }
    }

    @Test func aSaneClientRequestIdIsKeptAndAHostileOneReplaced() async throws {
        try await withBrokenObject { server, recorder in
            let kept = try await server.call(
                "GET", "/1/classes/Broken/broken0001", headers: [("X-Request-Id", "trace-42.a:b_c")])
            #expect(kept.headers["X-Request-Id"] == "trace-42.a:b_c")
            #expect(kept.json?["error"] == "internal server error (request trace-42.a:b_c)")
            for hostile in ["two words", String(repeating: "x", count: 65), "ünïcode", "a\"b", "id%0d%0aforged"] {
                let response = try await server.call(
                    "GET", "/1/classes/Broken/broken0001", headers: [("X-Request-Id", hostile)])
                let id = try #require(response.headers["X-Request-Id"])
                #expect(id != hostile)
                #expect(id.utf8.count == 16 && id.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
            }
            let lines = recorder.entries(atLeast: .error)
            #expect(lines.count == 6)
            #expect(!lines.contains { $0.message.contains("two words") || $0.message.contains("forged") })
        }
    }

    @Test func clientErrorsAreNotLoggedNorTagged() async throws {
        try await withBrokenObject { server, recorder in
            let missing = try await server.call("GET", "/1/classes/Broken/nope000001")
            #expect(missing.status == 404 || missing.status == 400)
            // Every answer carries its request id (for the access log); only faults name it in their message.
            #expect(missing.headers["X-Request-Id"] != nil)
            #expect(missing.json?["error"]?.stringValue?.contains("(request") == false)
            let badQuery = try await server.call("GET", "/1/classes/Broken?where=%7B%22a%22%3A%7B%22%24bogus%22%3A1%7D%7D")
            #expect(badQuery.json?["code"] == 102)
            #expect(recorder.entries(atLeast: .error).isEmpty)
        }
    }

    @Test func aNativeFiveHundredIsLoggedAndCarriesTheIdInItsEnvelope() async throws {
        try await withBrokenObject { server, recorder in
            let answer = try await NativeTestClient(server).call(
                "find", ["c": "Broken", "objectId": "broken0001", "data": nil])
            #expect(answer.http.status == 200)
            #expect(answer.code == 500)
            let id = try #require(answer.http.headers["X-Request-Id"])
            #expect(answer.message == "internal server error (request \(id))")
            let entry = try #require(onlyError(recorder))
            #expect(entry.metadata["requestId"] == id)
            #expect(entry.message.contains("POST /8/find"))
            #expect(entry.message.contains("StoreError.corrupt"))
        }
    }

    @Test func aFailedBatchElementIsLoggedWithTheRequestId() async throws {
        try await withBrokenObject { server, recorder in
            let response = try await server.call(
                "POST", "/1/batch",
                json: [
                    "requests": [
                        ["method": "POST", "path": "/1/classes/Fine", "body": ["n": 1]],
                        ["method": "GET", "path": "/1/classes/Broken/broken0001"],
                    ]
                ], headers: [("X-Request-Id", "batch-7")])
            #expect(response.status == 200)
            #expect(response.headers["X-Request-Id"] == "batch-7")
            let results = try #require(response.json?.arrayValue)
            #expect(results.count == 2)
            #expect(results[0]["success"]?["objectId"] != nil)
            #expect(results[1] == ["error": ["code": 500, "error": "internal server error (request batch-7)"]])
            let entry = try #require(onlyError(recorder))
            #expect(entry.message.contains("POST /1/batch element 1"))
            #expect(entry.metadata["requestId"] == "batch-7")
        }
    }

    @Test func anUnavailableStoreIsAFiveHundredThreeLoggedTheSameWay() async throws {
        try await withBrokenObject { server, recorder in
            let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
            await runtime.store.close()
            let response = try await server.call("GET", "/1/classes/Broken")
            #expect(response.status == 503)
            let id = try #require(response.headers["X-Request-Id"])
            #expect(response.json == ["code": 503, "error": .string("the server is busy, try again later (request \(id))")])
            let entry = try #require(onlyError(recorder))
            #expect(entry.message.contains("GET /1/classes/:className answered 503"))
            #expect(entry.message.contains("StoreError.closed"))
        }
    }
}
