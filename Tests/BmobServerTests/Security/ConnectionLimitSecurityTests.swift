import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 4: connections that never send a request, or many from one client, cannot take the
/// server's connection slots from everyone else.
@Suite("Security: connection slots") struct ConnectionLimitSecurityTests {
    /// The time of the test's server: timeouts are advanced past, not waited for.
    let clock = ManualClock()

    /// Starts a test server on the manual clock, runs `body`, and always stops the server.
    private func withTestServer(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestServer) async throws -> Void
    ) async throws {
        try await BmobServerTests.withTestServer(loopClock: .manual(clock), configure: configure, body)
    }

    /// A connection that sent `GET /health` and got its answer: admitted, and kept open (keep-alive).
    private func servedConnection(_ server: TestServer, source: String? = nil) async throws -> RawHTTPConnection {
        let connection = try server.connect(source: source)
        try await connection.send(HTTPRequestText.make("GET", "/health"))
        let response = try await connection.readResponse()
        guard response.status == 200 else { throw TestFailure("/health answered \(response.status)") }
        return connection
    }

    @Test func theNewLimitsHaveSafeDefaultsAndAreReadFromFlagsAndEnvironment() throws {
        let defaults = try ConfigurationLoader.load(flags: [:], environment: [:])
        #expect(defaults.maxConnectionsPerAddress == 1000)
        #expect(defaults.maxConnectionsPerAddress * 10 == defaults.maxConnections)
        #expect(defaults.realtimeMaxHandshakesPerAddress == 32)
        #expect(defaults.realtimeHandshakeLifetimeSeconds == 10)
        #expect(defaults.realtimeMaxSessionsPerApp == 5000)
        let set = try ConfigurationLoader.load(
            flags: ["--max-connections-per-address": "5", "--realtime-max-handshakes-per-address": "6"],
            environment: ["BMOB_REALTIME_HANDSHAKE_LIFETIME_SECONDS": "7", "BMOB_REALTIME_MAX_SESSIONS_PER_APP": "8"])
        #expect(set.maxConnectionsPerAddress == 5)
        #expect(set.realtimeMaxHandshakesPerAddress == 6)
        #expect(set.realtimeHandshakeLifetimeSeconds == 7)
        #expect(set.realtimeMaxSessionsPerApp == 8)
        #expect(set != defaults)
        for (flag, key) in [
            ("--max-connections-per-address", "maxConnectionsPerAddress"),
            ("--realtime-max-handshakes-per-address", "realtimeMaxHandshakesPerAddress"),
            ("--realtime-handshake-lifetime-seconds", "realtimeHandshakeLifetimeSeconds"),
            ("--realtime-max-sessions-per-app", "realtimeMaxSessionsPerApp"),
        ] {
            #expect {
                _ = try ConfigurationLoader.load(flags: [flag: "0"], environment: [:])
            } throws: { error in
                (error as? ConfigurationError)?.message.hasPrefix(key) == true
            }
        }
    }

    @Test func oneAddressOverItsCapGets503WhileAnotherAddressIsServed() async throws {
        try await withTestServer(configure: { $0.maxConnectionsPerAddress = 3 }) { server in
            var held: [RawHTTPConnection] = []
            for _ in 0..<3 { held.append(try await servedConnection(server)) }
            let over = try server.connect()
            let refused = try await over.readResponse()
            #expect(refused.status == 503)
            #expect(refused.json?["code"]?.int64Value == 503)
            #expect(refused.json?["error"]?.stringValue == "too many connections from your address")
            #expect(await over.waitForClose())
            // Another client address still gets in.
            let other = try server.connect(source: "127.0.0.2")
            try await other.send(HTTPRequestText.make("GET", "/health"))
            #expect(try await other.readResponse().status == 200)
            // A closed connection gives its address the slot back.
            held.removeFirst().shutdownWrite()
            #expect(await server.waitForConnectionCount(3))
            _ = try await servedConnection(server)
        }
    }

    @Test func webSocketsCountAgainstTheirAddressesCap() async throws {
        try await withTestServer(configure: { $0.maxConnectionsPerAddress = 2 }) { server in
            let subscriber = try await SocketIOTestClient.connect(server)
            // The handshake's own connection is gone; the WebSocket stays.
            #expect(await server.waitForConnectionCount(1))
            let held = try await servedConnection(server)
            let over = try server.connect()
            #expect(try await over.readResponse().status == 503)
            // Closing the WebSocket frees its slot.
            try await subscriber.socket.send(text: "0::")
            #expect(try await subscriber.socket.nextClose() == .normalClosure)
            // The client answers the closing handshake and closes its side once the server has closed TCP.
            try await subscriber.socket.send(WebSocketFrame.close(code: .normalClosure))
            #expect(try await subscriber.socket.nextFrame() == nil)
            subscriber.socket.connection.shutdownWrite()
            #expect(await server.waitForConnectionCount(1))
            _ = try await servedConnection(server)
            _ = held
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheHeaderTimeout() async throws {
        try await withTestServer(configure: { $0.headerTimeoutSeconds = 2; $0.idleTimeoutSeconds = 120 }) { server in
            let served = try await servedConnection(server)
            // Before the fix a silent connection waited out the idle timeout (here 120 s).
            let silent = try server.connect()
            await clock.advance(by: .seconds(2))
            await #expect(throws: RawHTTPError.closed) { _ = try await silent.readResponse() }
            // The connection that completed a request has idled longer than the header timeout by now: keep-alive
            // idling is still governed by the idle timeout.
            try await served.send(HTTPRequestText.make("GET", "/health"))
            #expect(try await served.readResponse().status == 200)
        }
    }

    @Test func aHeadStartedRightAfterAcceptMustStillArriveWithinTheHeaderTimeout() async throws {
        try await withTestServer(configure: { $0.headerTimeoutSeconds = 2 }) { server in
            // Slowloris: one byte of head, then nothing. The answer is 408 in Bmob's shape.
            let slow = try server.connect()
            try await slow.send("G")
            await clock.advance(by: .seconds(2))
            let response = try await slow.readResponse()
            #expect(response.status == 408)
            #expect(response.json?["code"]?.int64Value == 408)
            #expect(await slow.waitForClose())
        }
    }

    @Test func aFullServerMakesRoomByClosingTheOldestConnectionThatNeverSentARequest() async throws {
        // One loop: room is made among the connections of the loop that accepts the newcomer.
        try await withTestServer(configure: { $0.loops = 1; $0.maxConnections = 3 }) { server in
            let served = try await servedConnection(server)
            let oldestSilent = try server.connect()
            let newerSilent = try server.connect()
            #expect(await server.waitForConnectionCount(3))
            // Newcomers are served, each by closing the oldest connection that has sent no request.
            let first = try await servedConnection(server, source: "127.0.0.2")
            await #expect(throws: RawHTTPError.closed) { _ = try await oldestSilent.readResponse() }
            let second = try await servedConnection(server, source: "127.0.0.2")
            await #expect(throws: RawHTTPError.closed) { _ = try await newerSilent.readResponse() }
            // Every connection has now sent a request: none is taken, the newcomer is refused.
            let refused = try server.connect(source: "127.0.0.3")
            let response = try await refused.readResponse()
            #expect(response.status == 503)
            #expect(response.json?["error"]?.stringValue == "too many connections")
            for connection in [served, first, second] {
                try await connection.send(HTTPRequestText.make("GET", "/health"))
                #expect(try await connection.readResponse().status == 200)
            }
        }
    }

    @Test func aFloodOfSilentConnectionsFromOneAddressLeavesHealthReachable() async throws {
        // Hostile: one address opens more silent connections than its cap, at a server of two loops whose
        // global limit is the same as that cap.
        try await withTestServer(configure: { $0.maxConnections = 8; $0.maxConnectionsPerAddress = 6 }) { server in
            var flood: [RawHTTPConnection] = []
            for _ in 0..<12 { flood.append(try server.connect()) }
            #expect(await server.waitForConnectionCount(6))
            let health = try await server.request("GET", "/health", source: "127.0.0.2")
            #expect(health.status == 200)
            _ = flood
        }
    }
}
