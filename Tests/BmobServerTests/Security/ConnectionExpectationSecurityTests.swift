import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 19 (second half): an `Expect` the server cannot meet is refused with 417 before the
/// request runs.
@Suite("Security: Expect header") struct ConnectionExpectationSecurityTests {
    /// The time of the test's server, which never moves: no answer here may depend on a timer.
    let clock = ManualClock()

    /// Starts a test server on the manual clock, runs `body`, and always stops the server.
    private func withTestServer(_ body: (TestServer) async throws -> Void) async throws {
        let server = try await TestServer.start(loopClock: .manual(clock))
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func createRequest(_ server: TestServer, expect: String, name: String) -> [UInt8] {
        HTTPRequestText.make(
            "POST", "/1/classes/ExpectProbe", headers: server.appHeaders + [("Expect", expect)],
            json: JSONValue.object(["name": .string(name)]).jsonString)
    }

    private func probeNames(_ server: TestServer) async throws -> [String] {
        let found = try await server.call("GET", "/1/classes/ExpectProbe")
        return found.json?["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.sorted() ?? []
    }

    @Test(arguments: ["200-ok", "100-continue, 200-ok", "", "x-anything=1"])
    func unsupportedExpectationsAre417AndNothingRuns(expect: String) async throws {
        try await withTestServer { server in
            _ = try await server.create("ExpectProbe", ["name": "before"])
            let connection = try server.connect()
            try await connection.send(createRequest(server, expect: expect, name: "refused"))
            let response = try await connection.readResponse(interim: true)
            #expect(response.status == 417)
            #expect(response.json?["code"]?.int64Value == 417)
            #expect(response.json?["error"]?.stringValue?.contains("expectation") == true)
            #expect(response.headers["Connection"] == "close")
            #expect(await connection.waitForClose())
            #expect(try await probeNames(server) == ["before"])
        }
    }

    @Test func continueIsStillHonoured() async throws {
        try await withTestServer { server in
            let connection = try server.connect()
            let request = createRequest(server, expect: "100-continue", name: "accepted")
            let headEnd = request.indices.first { request[$0...].starts(with: Array("\r\n\r\n".utf8)) }! + 4
            try await connection.send(Array(request[..<headEnd]))
            #expect(try await connection.readResponse(interim: true).status == 100)
            try await connection.send(Array(request[headEnd...]))
            #expect(try await connection.readResponse().status == 201)
            #expect(try await probeNames(server) == ["accepted"])
        }
    }
}
