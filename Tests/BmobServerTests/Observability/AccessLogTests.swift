import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The access log: one line per answered request with its id, app, route pattern, status, size, duration and caller
/// kind; `X-Request-Id` accepted when sane, generated otherwise, echoed on every response.
@Suite struct AccessLogTests {
    private func withLoggingServer(
        format: LogFormat = .text, accessLog: Bool = true,
        _ body: (TestServer, RecordingLogHandler) async throws -> Void
    ) async throws {
        let recorder = RecordingLogHandler()
        let server = try await TestServer.start(logger: Logger(label: "test", level: .error, handler: recorder)) {
            $0.accessLog = accessLog
            $0.logFormat = format
        }
        do {
            try await body(server, recorder)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func accessLines(_ recorder: RecordingLogHandler) -> [String] {
        recorder.entries.filter { $0.label == "access" }.map(\.message)
    }

    /// The `key=value` pairs of a logfmt line (values here are plain tokens).
    private func fields(_ line: String) -> [String: String] {
        Dictionary(
            line.split(separator: " ").compactMap { pair -> (String, String)? in
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
            }, uniquingKeysWith: { first, _ in first })
    }

    @Test func oneLinePerRequestWithRoutePatternAppStatusAndCaller() async throws {
        try await withLoggingServer { server, recorder in
            let created = try await server.request(
                "POST", "/1/classes/GameScore", headers: server.appHeaders + [("Content-Type", "application/json"), ("X-Request-Id", "client-id-1")],
                body: Array(#"{"score":1}"#.utf8))
            #expect(created.status == 201)
            #expect(created.headers["X-Request-Id"] == "client-id-1")
            let id = try #require(created.json?["objectId"]?.stringValue)
            let read = try await server.request("GET", "/1/classes/GameScore/\(id)", headers: server.masterHeaders)
            #expect(read.status == 200)
            try await pollUntil { accessLines(recorder).count >= 2 }
            let lines = accessLines(recorder)
            #expect(lines.count == 2)
            let create = fields(lines[0])
            #expect(create["request"] == "client-id-1")
            #expect(create["app"] == TestServer.applicationId)
            #expect(create["method"] == "POST")
            #expect(create["route"] == "/1/classes/:className")
            #expect(create["status"] == "201")
            #expect(create["bytes"] == String(created.body.count))
            #expect(create["caller"] == "key")
            #expect(create["ms"].flatMap(Double.init) != nil)
            #expect(create["time"]?.hasSuffix("Z") == true)
            let get = fields(lines[1])
            #expect(get["route"] == "/1/classes/:className/:objectId")
            #expect(get["caller"] == "master")
            #expect(get["request"] == read.headers["X-Request-Id"])
            // The object id is client data of the path: the pattern is logged, never the path.
            #expect(!lines[1].contains(id))
        }
    }

    @Test func generatedIdsAreDistinctAndHostileIdsAreReplaced() async throws {
        try await withLoggingServer { server, recorder in
            var ids = Set<String>()
            for _ in 0..<20 {
                let response = try await server.request("GET", "/health")
                let id = try #require(response.headers["X-Request-Id"])
                #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
                ids.insert(id)
            }
            #expect(ids.count == 20)
            for hostile in [String(repeating: "a", count: 65), "two words", "quote\"d", "semi;colon", "a=b"] {
                let response = try await server.request("GET", "/health", headers: [("X-Request-Id", hostile)])
                let id = try #require(response.headers["X-Request-Id"])
                #expect(id != hostile && id.count == 16)
            }
            try await pollUntil { accessLines(recorder).count >= 25 }
            #expect(!accessLines(recorder).contains { $0.contains("two words") || $0.contains("quote") })
        }
    }

    @Test func unmatchedAndRefusedRequestsAreLoggedWithoutTheirPath() async throws {
        try await withLoggingServer { server, recorder in
            let missing = try await server.request("GET", "/no/such/%22route%22%0Aforged=1")
            #expect(missing.status == 404)
            #expect(missing.json?["code"] == 404)
            // A malformed request line: the HTTP layer refuses it before any route.
            let connection = try server.connect()
            try await connection.send(Array("BROKEN\r\n\r\n".utf8))
            let refused = try await connection.readResponse()
            #expect(refused.status == 400)
            #expect(refused.headers["X-Request-Id"] != nil)
            try await pollUntil { accessLines(recorder).count >= 2 }
            let lines = accessLines(recorder)
            #expect(fields(lines[0])["route"] == "-" && fields(lines[0])["status"] == "404")
            #expect(fields(lines[1])["method"] == "-" && fields(lines[1])["status"] == "400")
            #expect(!lines.contains { $0.contains("forged") || $0.contains("no/such") })
        }
    }

    @Test func jsonLinesCarryTheSameMembers() async throws {
        try await withLoggingServer(format: .json) { server, recorder in
            let response = try await server.request(
                "GET", "/1/classes/GameScore", headers: server.appHeaders + [("X-Bmob-Session-Token", "not-a-session")])
            try await pollUntil { !accessLines(recorder).isEmpty }
            let line = try #require(accessLines(recorder).first)
            let object = try JSONParser.parse(Array(line.utf8))
            #expect(object["label"] == "access")
            #expect(object["request"]?.stringValue == response.headers["X-Request-Id"])
            #expect(object["app"]?.stringValue == TestServer.applicationId)
            #expect(object["method"] == "GET")
            #expect(object["route"] == "/1/classes/:className")
            #expect(object["status"] == .int(Int64(response.status)))
            #expect(object["caller"] == "session")
            #expect(object["durationMs"]?.doubleValue != nil)
        }
    }

    @Test func offMeansNoLines() async throws {
        try await withLoggingServer(accessLog: false) { server, recorder in
            let response = try await server.request("GET", "/health")
            #expect(response.status == 200)
            #expect(response.headers["X-Request-Id"] != nil)
            try await Task.sleep(for: .milliseconds(50))
            #expect(accessLines(recorder).isEmpty)
        }
    }

    @Test func logfmtQuotesWhatIsNotAPlainToken() {
        let log = AccessLog(format: .text, handler: DiscardingLogHandler())
        let line = log.line(
            AccessLogEntry(
                time: 0, requestId: "r", applicationId: "app \"x\"", method: "GET", route: "-", status: 200, bytes: 0,
                nanoseconds: 1_234_567, caller: "none"))
        #expect(line == #"time=1970-01-01T00:00:00.000Z request=r app="app \"x\"" method=GET route=- status=200 bytes=0 ms=1.234 caller=none"#)
    }

    @Test func timestampsMatchFoundationsCalendar() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        let samples: [Int64] = [0, 951_782_400_000, 4_107_542_400_000, -86_400_001]
            + (0..<500).map { _ in Int64.random(in: 0...8_000_000_000_000, using: &generator) }
        for milliseconds in samples {
            let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
            let fraction = milliseconds - seconds * 1000
            let whole = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            let expected = whole.dropLast() + "." + String(format: "%03d", fraction) + "Z"
            #expect(LogTimestamp.format(milliseconds: milliseconds) == expected, "\(milliseconds)")
        }
    }
}

/// Polls `condition` for up to five seconds (access lines are written after the response is sent).
func pollUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<500 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    #expect(condition())
}
