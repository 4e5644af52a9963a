import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// `GET /metrics`: behind a bearer token on the main port, without one on the admin port, in the Prometheus text
/// format as an independent parser (Python's `prometheus_client`) reads it.
@Suite struct MetricsTests {
    static let token = "metrics-token-0123456789"

    private func withMetricsServer(
        token: String? = MetricsTests.token, adminPort: Int? = nil, _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try await TestServer.start {
            $0.metricsToken = token
            $0.adminPort = adminPort
        }
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The families as `prometheus_client` parsed them.
    private func scrape(_ url: String, token: String? = MetricsTests.token) async throws -> [String: JSONValue] {
        let output = try await PythonPeer.run("parse_metrics.py", [url] + (token.map { [$0] } ?? []))
        let parsed = try JSONParser.parse(Array(output.utf8))
        #expect(parsed["contentType"]?.stringValue?.hasPrefix("text/plain; version=0.0.4") == true)
        return try #require(parsed["families"]?.objectValue)
    }

    /// The value of the sample called `name` whose labels include `labels`.
    private func value(_ families: [String: JSONValue], _ family: String, _ name: String, _ labels: [String: String]) -> Double? {
        guard case .array(let samples)? = families[family]?["samples"] else { return nil }
        for case .array(let sample) in samples where sample.count == 3 && sample[0].stringValue == name {
            let sampleLabels = sample[1].objectValue ?? [:]
            if labels.allSatisfy({ sampleLabels[$0.key]?.stringValue == $0.value }) { return sample[2].doubleValue }
        }
        return nil
    }

    @Test func offWithoutATokenAndRefusedWithAWrongOne() async throws {
        try await withMetricsServer(token: nil) { server in
            let off = try await server.request("GET", "/metrics")
            #expect(off.status == 404)
            #expect(off.json?["code"] == 404)
        }
        try await withMetricsServer { server in
            let missing = try await server.request("GET", "/metrics")
            #expect(missing.status == 401)
            #expect(missing.json?["code"] == 401)
            #expect(missing.headers["WWW-Authenticate"] == "Bearer")
            for wrong in ["Bearer metrics-token-012345678", "Bearer metrics-token-01234567890", "Basic \(Self.token)", "Bearer "] {
                let refused = try await server.request("GET", "/metrics", headers: [("Authorization", wrong)])
                #expect(refused.status == 401, "\(wrong)")
            }
            // App keys are no substitute for the token.
            let withKeys = try await server.request("GET", "/metrics", headers: server.masterHeaders)
            #expect(withKeys.status == 401)
        }
    }

    @Test func aParserReadsRequestsConnectionsStoreAndMessages() async throws {
        try await withMetricsServer { server in
            for index in 0..<5 {
                let created = try await server.request(
                    "POST", "/1/classes/Metered", headers: server.appHeaders + [("Content-Type", "application/json")],
                    body: Array(#"{"n":\#(index)}"#.utf8))
                #expect(created.status == 201)
            }
            let missing = try await server.request("GET", "/1/classes/Metered/doesnotexist", headers: server.appHeaders)
            #expect(missing.status >= 400)
            let sms = try await server.request(
                "POST", "/1/requestSmsCode", headers: server.appHeaders + [("Content-Type", "application/json")],
                body: Array(#"{"mobilePhoneNumber":"13800000001"}"#.utf8))
            #expect(sms.status == 200)
            let socket = try await TestWebSocket.connect(
                port: server.port, path: "/app/\(TestServer.channels.key)?protocol=7")
            _ = try await socket.nextText()  // connection_established: the handler is open

            let families = try await scrape("\(server.baseURL)/metrics")
            #expect(families["bmob_http_requests"]?["type"] == "counter")
            #expect(value(families, "bmob_http_requests", "bmob_http_requests_total", ["route": "POST /1/classes/:className", "status": "201"]) == 5)
            #expect(value(families, "bmob_http_requests", "bmob_http_requests_total", ["route": "GET /1/classes/:className/:objectId", "status": String(missing.status)]) == 1)
            #expect(families["bmob_http_request_duration_seconds"]?["type"] == "histogram")
            #expect(value(families, "bmob_http_request_duration_seconds", "bmob_http_request_duration_seconds_count", ["route": "POST /1/classes/:className"]) == 5)
            #expect(value(families, "bmob_http_request_duration_seconds", "bmob_http_request_duration_seconds_bucket", ["route": "POST /1/classes/:className", "le": "+Inf"]) == 5)
            #expect(value(families, "bmob_open_connections", "bmob_open_connections", ["kind": "channels"]) == 1)
            #expect((value(families, "bmob_open_connections", "bmob_open_connections", ["kind": "http"]) ?? 0) >= 2)
            let app = TestServer.applicationId
            #expect((value(families, "bmob_store_writes", "bmob_store_writes_total", ["app": app, "result": "committed"]) ?? 0) >= 5)
            #expect((value(families, "bmob_store_group_commit_size", "bmob_store_group_commit_size_count", ["app": app]) ?? 0) >= 1)
            #expect(value(families, "bmob_store_write_queue_depth", "bmob_store_write_queue_depth", ["app": app]) == 0)
            #expect((value(families, "bmob_store_reads", "bmob_store_reads_total", ["app": app]) ?? 0) >= 1)
            #expect(value(families, "bmob_messages_sent", "bmob_messages_sent_total", ["kind": "sms", "result": "sent"]) == 1)
            #expect((value(families, "bmob_realtime_messages_sent", "bmob_realtime_messages_sent_total", [:]) ?? 0) >= 1)
            // Memory: the resident set, and SQLite's and the allocator's shares of it (the test process's own).
            let resident = value(families, "process_resident_memory_bytes", "process_resident_memory_bytes", [:]) ?? 0
            let sqlite = value(families, "bmob_sqlite_page_cache_bytes", "bmob_sqlite_page_cache_bytes", [:]) ?? 0
            let inUse = value(families, "bmob_malloc_bytes", "bmob_malloc_bytes", ["state": "in_use"]) ?? 0
            #expect(resident > 1_048_576)
            if !TestPostgres.isSelected {
                #expect(sqlite > 0, "the test server's SQLite connections hold page caches")
                #expect(inUse >= sqlite, "SQLite's page caches come from the C allocator")
            }
            #expect(value(families, "bmob_malloc_bytes", "bmob_malloc_bytes", ["state": "free_kept"]) != nil)

            try await socket.send(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]))
            _ = try? await socket.nextClose()
            try await pollUntil { server.server.context.metrics.webSockets[.channels]?.value == 0 }
        }
    }

    @Test func theAdminPortServesMetricsWithoutAToken() async throws {
        try await withMetricsServer(token: nil, adminPort: 0) { server in
            let admin = try #require(server.server.adminAddress)
            let families = try await scrape("http://127.0.0.1:\(admin.port)/metrics", token: nil)
            #expect(families["bmob_open_connections"] != nil)
            let other = try RawHTTPConnection(port: Int(admin.port))
            try await other.send(HTTPRequestText.make("GET", "/1/classes/Metered", headers: server.masterHeaders, body: nil))
            let refused = try await other.readResponse(toHead: false)
            #expect(refused.status == 404)
            #expect(refused.json?["code"] == 404)
        }
    }

    @Test func labelValuesAreEscaped() {
        var writer = PrometheusTextWriter()
        writer.family("bmob_test", type: "gauge", help: "a\\b\nc")
        writer.sample("bmob_test", ["route": "GET /a\"b\\c\nd"], 1.5)
        #expect(writer.text == "# HELP bmob_test a\\\\b\\nc\n# TYPE bmob_test gauge\nbmob_test{route=\"GET /a\\\"b\\\\c\\nd\"} 1.5\n")
    }

    @Test func histogramBucketsAreCumulative() {
        let histogram = MetricHistogram(bounds: [1, 2], scale: 1)
        for value in [0, 1, 2, 3, 100] as [UInt64] { histogram.observe(value) }
        let snapshot = histogram.snapshot
        #expect(snapshot.cumulative == [2, 3, 5])
        #expect(snapshot.count == 5 && snapshot.sum == 106)
    }
}
