import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The channels door's clocks and counts: the signin deadline of apps that want authorized connections, the ping
/// after silence and the 4201 for a peer that never answers it (on a manual loop clock, advanced instead of waited
/// for), and the subscription counts apps may ask for.
@Suite("Channels: timeouts and subscription counts")
struct PusherTimeoutTests {
    let clock = ManualClock()

    private func withChannels(
        authorizedConnections: Bool = false, subscriptionCount: Bool = false, manualClock: Bool = true,
        _ body: (TestServer) async throws -> Void
    ) async throws {
        var channels = TestServer.channels
        channels.authorizedConnections = authorizedConnections
        channels.subscriptionCount = subscriptionCount
        let server = try await TestServer.start(loopClock: manualClock ? .manual(clock) : .system, channels: channels)
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("authorized connections: no signin within 30 s closes with 4009; a signed-in connection stays")
    func signinDeadline() async throws {
        try await withChannels(authorizedConnections: true) { server in
            let late = try await PusherTestClient.connect(server)
            let prompt = try await PusherTestClient.connect(server)
            let success = try await prompt.signIn(#"{"id":"u1"}"#)
            #expect(success["event"] == "pusher:signin_success", "\(success)")
            // Subscribing is allowed while the deadline runs.
            #expect(try await late.subscribe("news")["event"] == "pusher_internal:subscription_succeeded")
            await clock.advance(by: .seconds(29))
            try await late.send(["event": "pusher:ping", "data": [:]])
            #expect(try await late.next()["event"] == "pusher:pong", "still open before the deadline")
            await clock.advance(by: .seconds(2))
            let error = try await late.next()
            #expect(error["event"] == "pusher:error" && error["data"]?["code"]?.int64Value == 4009, "\(error)")
            #expect(try await late.socket.nextClose()?.rawValue == 4009)
            try await prompt.send(["event": "pusher:ping", "data": [:]])
            #expect(try await prompt.next()["event"] == "pusher:pong", "the signed-in connection stays")
        }
    }

    @Test("without authorized connections nobody has to sign in")
    func noSigninDeadline() async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.connect(server)
            await clock.advance(by: .seconds(40))
            try await client.send(["event": "pusher:ping", "data": [:]])
            #expect(try await client.next()["event"] == "pusher:pong")
        }
    }

    @Test("a silent connection is pinged after 150 s; one that never answers gets 4201, one that answers stays")
    func pongTimeout() async throws {
        try await withChannels { server in
            let silent = try await PusherTestClient.connect(server)
            let alive = try await PusherTestClient.connect(server)
            await clock.advance(by: .seconds(151))
            #expect(try await silent.socket.nextFrame()?.opcode == .ping)
            #expect(try await alive.socket.nextFrame()?.opcode == .ping)
            try await alive.socket.send(WebSocketFrame(opcode: .pong))
            try await alive.send(["event": "pusher:ping", "data": [:]])
            #expect(try await alive.next()["event"] == "pusher:pong", "the answer reached the server before time moves on")
            await clock.advance(by: .seconds(31))
            let error = try await silent.next()
            #expect(error["event"] == "pusher:error" && error["data"]?["code"]?.int64Value == 4201, "\(error)")
            #expect(try await silent.socket.nextClose()?.rawValue == 4201)
            try await alive.send(["event": "pusher:ping", "data": [:]])
            #expect(try await alive.next()["event"] == "pusher:pong", "the connection that answered stays")
        }
    }

    @Test("a graceful shutdown tells channel connections to come back at once: an error frame and a close with 4200")
    func shutdownSays4200() async throws {
        let server = try await TestServer.start(channels: TestServer.channels)
        let client = try await PusherTestClient.connect(server, prefix: "bird")
        #expect(try await client.subscribe("news")["event"] == "bird_internal:subscription_succeeded")
        async let stopped: Void = server.stop()
        let error = try await client.next()
        #expect(error["event"] == "bird:error" && error["data"]?["code"]?.int64Value == 4200, "\(error)")
        #expect(try await client.socket.nextClose()?.rawValue == 4200)
        try? await client.socket.send(WebSocketFrame.close(code: WebSocketCloseCode(rawValue: 4200), reason: ""))
        await stopped
    }

    @Test("subscription counts, when the app asks for them: every subscriber hears each change, on both prefixes")
    func subscriptionCounts() async throws {
        try await withChannels(subscriptionCount: true, manualClock: false) { server in
            let first = try await PusherTestClient.connect(server)
            #expect(try await first.subscribe("news")["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await first.nextSubscriptionCount() == 1)
            let second = try await PusherTestClient.connect(server, prefix: "bird")
            #expect(try await second.subscribe("news")["event"] == "bird_internal:subscription_succeeded")
            #expect(try await second.nextSubscriptionCount() == 2)
            #expect(try await first.nextSubscriptionCount() == 2)
            try await second.send(["event": "bird:unsubscribe", "data": ["channel": "news"]])
            #expect(try await first.nextSubscriptionCount() == 1)
            // Presence channels have members instead; private ones count too.
            let member = try await first.subscribe("presence-room", channelData: #"{"user_id":"u1"}"#)
            #expect(member["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await first.silence()?["event"] != "pusher_internal:subscription_count")
            #expect(try await first.subscribe("private-x")["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await first.nextSubscriptionCount() == 1)
        }
    }

    @Test("no subscription counts unless the app asks for them")
    func noSubscriptionCounts() async throws {
        try await withChannels(manualClock: false) { server in
            let client = try await PusherTestClient.connect(server)
            #expect(try await client.subscribe("news")["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await client.silence() == nil)
        }
    }
}
