import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, items 5 and 17: the keyless socket.io handshake cannot fill the session table for everyone,
/// one app cannot take every realtime connection, and the handshake is not a credentialed CORS endpoint.
@Suite("Security: realtime handshakes") struct RealtimeHandshakeSecurityTests {
    /// The time of the test's server: handshake lifetimes are advanced past, not waited for.
    let clock = ManualClock()

    /// Starts a test server on the manual clock, runs `body`, and always stops the server.
    private func withTestServer(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestServer) async throws -> Void
    ) async throws {
        try await BmobServerTests.withTestServer(loopClock: .manual(clock), configure: configure, body)
    }

    private func handshake(_ server: TestServer, source: String? = nil, headers: [(String, String)] = []) async throws
        -> RawHTTPResponse
    {
        try await server.request("GET", "/socket.io/1/?t=1700000000000", headers: headers, source: source)
    }

    private func upgrade(_ server: TestServer, sid: String) async throws -> RawHTTPResponse? {
        do {
            _ = try await TestWebSocket.connect(port: server.port, path: "/socket.io/1/websocket/\(sid)")
            return nil
        } catch TestWebSocketError.refused(let response) {
            return response
        }
    }

    @Test func oneAddressHoldsAtMostItsShareOfUnusedHandshakes() async throws {
        try await withTestServer(configure: { $0.realtimeMaxHandshakesPerAddress = 4 }) { server in
            var sids: [String] = []
            for _ in 0..<4 {
                let response = try await handshake(server)
                #expect(response.status == 200)
                sids.append(try SocketIOHandshake(parsing: response.text).sid)
            }
            let refused = try await handshake(server)
            #expect(refused.status == 503)
            #expect(refused.json?["code"]?.int64Value == 503)
            #expect(refused.json?["error"]?.stringValue?.contains("too many unused realtime handshakes") == true)
            // Another address still gets an id.
            let other = try await handshake(server, source: "127.0.0.2")
            #expect(other.status == 200)
            #expect(try SocketIOHandshake(parsing: other.text).sid.count >= 16)
            // Using an id gives its address the slot back.
            #expect(try await upgrade(server, sid: sids[0]) == nil)
            #expect(try await handshake(server).status == 200)
        }
    }

    @Test func unusedHandshakesExpireAfterTheirLifetime() async throws {
        try await withTestServer(configure: {
            $0.realtimeMaxHandshakesPerAddress = 1
            $0.realtimeHandshakeLifetimeSeconds = 1
        }) { server in
            let first = try SocketIOHandshake(parsing: try await handshake(server).text)
            #expect(try await handshake(server).status == 503)
            // Just before its lifetime the id still holds the slot; once it has passed, the slot comes back.
            await clock.advance(by: .milliseconds(999))
            #expect(try await handshake(server).status == 503)
            await clock.advance(by: .milliseconds(2))
            #expect(try await handshake(server).status == 200)
            // The expired id opens nothing.
            let refused = try await upgrade(server, sid: first.sid)
            #expect(refused?.status == 403)
            #expect(refused?.json?["code"]?.int64Value == 403)
        }
    }

    @Test func theHandshakeAllowsAnyOriginWithoutCredentials() async throws {
        try await withTestServer { server in
            for headers in [[("Origin", "https://evil.example")], [("Origin", "null")], []] {
                let response = try await handshake(server, headers: headers)
                #expect(response.status == 200)
                #expect(response.headers["Access-Control-Allow-Origin"] == "*")
                #expect(response.headers["Access-Control-Allow-Credentials"] == nil)
            }
        }
    }

    @Test func oneAppHasAtMostItsShareOfSubscribedConnections() async throws {
        try await withTestServer(configure: { $0.realtimeMaxSessionsPerApp = 1 }) { server in
            let first = try await SocketIOTestClient.connect(server)
            try await first.subscribe("Chat", .updateTable)
            // The same connection may subscribe to more of the app.
            try await first.subscribe("Post", .updateTable)
            let second = try await SocketIOTestClient.connect(server)
            try await second.send(BmobRealtimeSubscription(appKey: TestServer.applicationId, tableName: "Chat", action: .updateTable))
            guard case .error(let reason, _) = try await second.nextPacket()?.payload else {
                Issue.record("no error packet for a subscription over the app's bound")
                return
            }
            #expect(reason.contains("too many realtime connections for this app"))
            // The refused connection stays open and gets nothing of the app.
            _ = try await server.create("Chat", ["text": "one"])
            #expect(try await first.nextEvent().data?["text"] == "one")
            #expect(try await second.expectSilence() == nil)
            // Dropping its last subscription of the app takes the first connection off the bound.
            try await first.subscribe("Chat", .unsubscribeUpdateTable)
            try await second.send(BmobRealtimeSubscription(appKey: TestServer.applicationId, tableName: "Chat", action: .updateTable))
            guard case .error = try await second.nextPacket()?.payload else {
                Issue.record("the first connection still holds a subscription of the app")
                return
            }
            try await first.subscribe("Post", .unsubscribeUpdateTable)
            try await second.subscribe("Chat", .updateTable)
            _ = try await server.create("Chat", ["text": "two"])
            #expect(try await second.nextEvent().data?["text"] == "two")
            // Closing a connection also takes it off the bound.
            try await second.socket.send(text: "0::")
            #expect(try await second.socket.nextClose() == .normalClosure)
            // Answer the close and end TCP, as clients do (the server lingers until then).
            try await second.socket.send(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]))
            second.socket.connection.shutdownWrite()
            #expect(await server.waitForConnectionCount(1))
            let third = try await SocketIOTestClient.connect(server)
            try await third.subscribe("Chat", .updateTable)
            _ = try await server.create("Chat", ["text": "three"])
            #expect(try await third.nextEvent().data?["text"] == "three")
        }
    }
}
