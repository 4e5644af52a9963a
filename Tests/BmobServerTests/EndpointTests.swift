import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The first endpoints through real HTTP on loopback: health, timestamp, app authentication, error shapes.
@Suite struct EndpointTests {
    /// 2015-07-22 02:22:50 UTC, the example of Bmob's documentation (10:22:50 in Beijing).
    static let documentedInstant: Int64 = 1_437_531_770_000

    private func withServer(clock: ServerClock = .system, _ body: (TestServer) async throws -> Void) async throws {
        let server = try await TestServer.start(clock: clock)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func healthNeedsNoKeys() async throws {
        try await withServer { server in
            let response = try await server.request("GET", "/health")
            #expect(response.status == 200)
            #expect(response.json == ["status": "ok"])
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        }
    }

    @Test func timestampAnswersInBeijingTimeByDefault() async throws {
        try await withServer(clock: .fixed(Self.documentedInstant)) { server in
            let response = try await server.request("GET", "/1/timestamp", headers: server.appHeaders)
            #expect(response.status == 200)
            #expect(response.json == ["timestamp": 1_437_531_770, "datetime": "2015-07-22 10:22:50"])
        }
    }

    @Test func timestampAcceptsTrailingSlashAndAnyHeaderCase() async throws {
        try await withServer(clock: .fixed(Self.documentedInstant)) { server in
            let headers = [
                ("x-bmob-application-id", TestServer.applicationId), ("X-Bmob-Rest-Api-Key", TestServer.restKey),
                ("Content-Type", "application/json"),
            ]
            let response = try await server.request("GET", "/1/timestamp/", headers: headers)
            #expect(response.status == 200)
            #expect(response.json?["timestamp"] == 1_437_531_770)
        }
    }

    @Test func timestampUsesTheAppTimeZone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-tz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = AppRegistry(dataDirectory: directory.path)
        var app = try registry.create(name: "UTC app", applicationId: "utcapp", restKey: "utckey", now: 0)
        app.timeZone = "+00:00"
        // Rewrite the registry with the changed setting, as an operator editing apps.json would.
        let document: JSONValue = ["apps": [app.json]]
        try Data(document.jsonBytes).write(to: directory.appendingPathComponent("apps.json"))
        let server = try await TestServer.start(dataDirectory: directory, clock: .fixed(Self.documentedInstant))
        let response = try await server.request(
            "GET", "/1/timestamp", headers: [("X-Bmob-Application-Id", "utcapp"), ("X-Bmob-REST-API-Key", "utckey")])
        await server.stop()
        #expect(response.json?["datetime"] == "2015-07-22 02:22:50")
    }

    @Test func masterKeyAlsoAuthenticates() async throws {
        try await withServer { server in
            let response = try await server.request("GET", "/1/timestamp", headers: server.masterHeaders)
            #expect(response.status == 200)
        }
    }

    @Test(arguments: [
        [("X-Bmob-REST-API-Key", TestServer.restKey)],
        [("X-Bmob-Application-Id", "nope"), ("X-Bmob-REST-API-Key", TestServer.restKey)],
        [("X-Bmob-Application-Id", TestServer.applicationId)],
        [("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", "wrong")],
        [("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-Master-Key", "wrong")],
        [("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-Master-Key", "wrong"), ("X-Bmob-REST-API-Key", TestServer.restKey)],
        [("X-Bmob-Application-Id", ""), ("X-Bmob-REST-API-Key", "")],
    ])
    func unknownAppsAndWrongKeysAre401(headers: [(String, String)]) async throws {
        try await withServer { server in
            let response = try await server.request("GET", "/1/timestamp", headers: headers)
            #expect(response.status == 401)
            #expect(response.json == ["code": 401, "error": "unauthorized"])
        }
    }

    @Test func appsCreatedWhileRunningAreFound() async throws {
        try await withServer { server in
            // Where this server reads its apps: apps.json, or the database's app table on PostgreSQL.
            let registry = AppRegistry(
                dataDirectory: server.dataDirectory.path, storage: server.server.context.configuration.storage)
            _ = try registry.create(name: "Late", applicationId: "lateapp", restKey: "latekey", now: 0)
            try await Task.sleep(for: .milliseconds(1100))  // the directory re-reads at most once a second
            let response = try await server.request(
                "GET", "/1/timestamp", headers: [("X-Bmob-Application-Id", "lateapp"), ("X-Bmob-REST-API-Key", "latekey")])
            #expect(response.status == 200)
        }
    }

    @Test func unknownRoutesAndMethodsAnswerInBmobShape() async throws {
        try await withServer { server in
            let missing = try await server.request("GET", "/nope", headers: server.appHeaders)
            #expect(missing.status == 404)
            #expect(missing.json?["code"] == 404)
            #expect(missing.json?["error"]?.stringValue != nil)

            let wrongMethod = try await server.request("DELETE", "/1/timestamp", headers: server.appHeaders)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["Allow"] == "GET")
            #expect(wrongMethod.json?["code"] == 405)
        }
    }

    @Test func protocolErrorsAnswerInBmobShape() async throws {
        let server = try await TestServer.start { $0.maxBodyBytes = 100; $0.maxHeaderBytes = 1024 }
        defer { Task { await server.stop() } }
        let cases: [(String, Int)] = [
            ("POST /1/timestamp HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
            ("POST /health HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413),
            ("GET /health HTTP/1.1\r\nX: \(String(repeating: "x", count: 2000))\r\n\r\n", 431),
            ("GET /health HTTP/1.1\r\nBad Header: x\r\n\r\n", 400),
        ]
        for (request, status) in cases {
            let connection = try server.connect()
            try await connection.send(request)
            let response = try await connection.readResponse()
            #expect(response.status == status)
            #expect(response.json?["code"]?.int64Value == Int64(status))
            #expect(response.json?["error"]?.stringValue?.isEmpty == false)
        }
    }
}
