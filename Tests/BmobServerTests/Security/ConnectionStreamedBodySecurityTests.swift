import BmobHTTP
import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Routes that stream their bodies (`BmobRouter`'s `bodyStream:`): the body never sits whole in memory, the
/// route's limit still holds, and an app route checks the caller's keys before reading a byte of the body.
@Suite("Security: streamed bodies") struct ConnectionStreamedBodySecurityTests {
    let clock = ManualClock()

    /// A test server's context behind a router of streaming routes, on its own HTTP server: `/stream/open`
    /// (64 MiB, no app needed) and `/stream/app` (1 MiB, app keys needed). Both answer `{"received": n}`.
    private func withStreamingServer(_ body: (TestServer, HTTPServer) async throws -> Void) async throws {
        let app = try await TestServer.start(loopClock: .manual(clock))
        var router = BmobRouter()
        router.open(.post, "/stream/open", bodyLimit: 64 << 20, bodyStream: true) { request in
            try await Self.count(request)
        }
        router.app(.post, "/stream/app", bodyLimit: 1 << 20, bodyStream: true) { request, _ in
            try await Self.count(request)
        }
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 1, clock: .manual(clock))
        let http: HTTPServer
        do {
            http = try await HTTPServer.start(
                configuration: configuration, responder: BmobResponder(router: router, server: app.server.context))
        } catch {
            await app.stop()
            throw error
        }
        do {
            try await body(app, http)
        } catch {
            await http.shutdown()
            await app.stop()
            throw error
        }
        await http.shutdown()
        await app.stop()
    }

    private static func count(_ request: BmobRequest) async throws -> HTTPResponse {
        guard let stream = request.http.bodyStream else { return .json(["received": .null]) }
        var received = 0
        for try await chunk in stream { received += chunk.count }
        return .json(["received": .int(Int64(received))])
    }

    private func head(_ path: String, length: Int, headers: [(String, String)]) -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n"
            + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    @Test func aStreamedRouteGetsItsBodyPieceByPieceInBoundedMemory() async throws {
        try await withStreamingServer { _, http in
            let total = 32 << 20
            let connection = try RawHTTPConnection(port: Int(http.localAddress.port), timeout: 60)
            try await connection.send(head("/stream/open", length: total, headers: []))
            async let sent: Void = connection.send(repeating: [UInt8](repeating: 0x61, count: 1 << 20), count: total)
            let response = try await connection.readResponse()
            try await sent
            #expect(response.status == 200)
            #expect(response.json?["received"]?.int64Value == Int64(total))
            #expect(http.peakStreamedBufferBytes <= 1 << 20)
        }
    }

    @Test func anAppRouteRefusesWrongKeysBeforeReadingTheBody() async throws {
        try await withStreamingServer { _, http in
            let connection = try RawHTTPConnection(port: Int(http.localAddress.port))
            // Only the head is sent: the answer cannot wait for the body.
            try await connection.send(
                head(
                    "/stream/app", length: 1 << 20,
                    headers: [("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", "wrong")]))
            let response = try await connection.readResponse()
            #expect(response.status == 401)
            #expect(response.json?["code"] != nil)
            // The unread body cannot be told from a next request: the connection ends.
            #expect(response.headers["Connection"] == "close")
            #expect(await connection.waitForClose())
        }
    }

    @Test func aClientWaitingForContinueIsRefusedWithoutBeingAskedForTheBody() async throws {
        try await withStreamingServer { app, http in
            let port = Int(http.localAddress.port)
            let refused = try RawHTTPConnection(port: port)
            try await refused.send(
                head(
                    "/stream/app", length: 1000,
                    headers: [
                        ("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", "wrong"),
                        ("Expect", "100-continue"),
                    ]))
            // The first answer is the refusal, not `100 Continue`.
            #expect(try await refused.readResponse(interim: true).status == 401)
            // With the right keys the handler reads, and only then is the client told to send.
            let accepted = try RawHTTPConnection(port: port)
            try await accepted.send(
                head("/stream/app", length: 1000, headers: app.appHeaders + [("Expect", "100-continue")]))
            #expect(try await accepted.readResponse(interim: true).status == 100)
            try await accepted.send([UInt8](repeating: 0x62, count: 1000))
            #expect(try await accepted.readResponse().json?["received"]?.int64Value == 1000)
        }
    }

    @Test func aStreamedRouteKeepsItsBodyLimit() async throws {
        try await withStreamingServer { app, http in
            let connection = try RawHTTPConnection(port: Int(http.localAddress.port))
            try await connection.send(head("/stream/app", length: (1 << 20) + 1, headers: app.appHeaders))
            let response = try await connection.readResponse()
            #expect(response.status == 413)
            #expect(response.json?["code"]?.int64Value == 413)
            #expect(await connection.waitForClose())
        }
    }
}
