import BmobRealtime
import BirdRealtime
@testable import BirdRealtime
import BmobServer
import BmobTesting
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

/// BirdRealtime against the in-process server (`bmob serve`'s channels door, prefix `bird`), no mocks: the real
/// WebSocket transport, the server's built-in auth endpoints, and its signed HTTP API to publish and terminate.
@Suite("BirdRealtime: end to end against the server")
struct BirdRealtimeEndToEndTests {
    /// Reconnection waits shortened to 50–200 ms, so tests of reconnects stay quick.
    static let fast = BirdRealtimeEnvironment(
        backoff: BirdReconnectBackoff(minimum: .milliseconds(50), maximum: .milliseconds(200)))

    static func client(_ options: BirdRealtimeOptions, _ environment: BirdRealtimeEnvironment = fast) -> BirdRealtime {
        BirdRealtimeEnvironment.$current.withValue(environment) { BirdRealtime(options: options) }
    }

    static func waitConnected(_ bird: BirdRealtime) async throws {
        try await waitUntil(timeout: 20, "connected") { bird.state == .connected ? true : nil }
    }

    @Test("public channel: states initialized→connecting→connected, published events arrive parsed (or as text)")
    func publicChannel() async throws {
        try await BirdServer.with { server in
            let log = Recorder()
            let bird = Self.client(server.options())
            defer { bird.disconnect() }
            bird.record(into: log)
            let orders = bird.subscribe("orders")
            #expect(bird.subscribe("orders") === orders)
            orders.record([BirdProtocol.Event.subscriptionSucceeded, "order-updated"], into: log)
            try await log.wait(prefix: "bird:subscription_succeeded")
            #expect(orders.isSubscribed)
            #expect(orders as? PresenceChannel == nil)
            #expect(bird.connectionId.map(PusherSocketIdCheck.isValid) == true)
            try await server.publish("orders", "order-updated", #"{"id":1,"items":["a"]}"#)
            try await server.publish("orders", "order-updated", "plain text")
            try await log.wait(prefix: #"order-updated {"id":1,"items":["a"]}"#)
            try await log.wait(prefix: #"order-updated "plain text""#)
            #expect(
                log.lines.filter { $0.hasPrefix("state") && $0 != "state initialized→connecting" } == [
                    "state connecting→connected"
                ])
        }
    }

    @Test("private channel through the server's auth endpoint (JSON connection_id + channel_name)")
    func privateChannel() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let log = Recorder()
            let bird = Self.client(server.options(token: ada.token))
            defer { bird.disconnect() }
            let room = bird.subscribe("private-room-1")
            room.record(
                [BirdProtocol.Event.subscriptionSucceeded, BirdProtocol.Event.subscriptionError, "news"], into: log)
            try await log.wait(prefix: "bird:subscription_succeeded")
            try await server.publish("private-room-1", "news", #"{"n":1}"#)
            try await log.wait(prefix: #"news {"n":1}"#)
            #expect(log.count { $0.hasPrefix("bird:subscription_error") } == 0)
        }
    }

    @Test("presence: myId and members, member_added and member_removed as others join and leave")
    func presence() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada", nickname: "Ada")
            let bob = try await server.signUp("bob", nickname: "Bob")
            let adaLog = Recorder()
            let bobLog = Recorder()
            let adaClient = Self.client(server.options(token: ada.token))
            defer { adaClient.disconnect() }
            let adaRoom = try #require(adaClient.subscribe("presence-room-7") as? PresenceChannel)
            adaRoom.bind(BirdProtocol.Event.subscriptionSucceeded) { data in
                adaLog.record(
                    "succeeded me=\(adaRoom.myId ?? "?") members=\(adaRoom.members.keys.sorted()) data=\(describe(data))"
                )
            }
            adaRoom.record([BirdProtocol.Event.memberAdded, BirdProtocol.Event.memberRemoved], into: adaLog)
            try await adaLog.wait(
                prefix: "succeeded me=\(ada.id) members=[\"\(ada.id)\"] data={\"\(ada.id)\":{\"nickname\":\"Ada\"}}")

            let bobClient = Self.client(server.options(token: bob.token))
            let bobRoom = try #require(bobClient.subscribe("presence-room-7") as? PresenceChannel)
            bobRoom.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
                bobLog.record("succeeded me=\(bobRoom.myId ?? "?") members=\(bobRoom.members.keys.sorted())")
            }
            try await bobLog.wait(prefix: "succeeded me=\(bob.id) members=\([ada.id, bob.id].sorted())")
            try await adaLog.wait(prefix: #"bird:member_added {"user_id":"\#(bob.id)","user_info":{"nickname":"Bob"}}"#)
            #expect(adaRoom.members.keys.sorted() == [ada.id, bob.id].sorted())
            #expect(describe(adaRoom.members[bob.id]) == #"{"nickname":"Bob"}"#)

            bobClient.disconnect()
            try await adaLog.wait(prefix: #"bird:member_removed {"user_id":"\#(bob.id)"}"#)
            #expect(adaRoom.members.keys.sorted() == [ada.id])
        }
    }

    @Test("the authorizer closure signs with the app's own stack, for the connection id it is given")
    func authorizerClosure() async throws {
        try await BirdServer.with { server in
            let log = Recorder()
            let memberData = #"{"user_id":"custom-1","user_info":{"name":"C"}}"#
            let bird = Self.client(
                server.options(authorizer: { connectionId, channel in
                    log.record("authorize \(connectionId) \(channel)")
                    return BirdServer.sign(connectionId: connectionId, channel: channel, memberData: memberData)
                }))
            defer { bird.disconnect() }
            let room = try #require(bird.subscribe("presence-anything") as? PresenceChannel)
            room.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
                log.record("succeeded \(room.myId ?? "?") \(room.members.keys.sorted())")
            }
            try await log.wait(prefix: #"succeeded custom-1 ["custom-1"]"#)
            #expect(log.lines.first == "authorize \(bird.connectionId ?? "") presence-anything")
        }
    }

    @Test("auth failures are bird:subscription_error on the channel: the endpoint's HTTP error, a throwing authorizer")
    func authorizationFailures() async throws {
        try await BirdServer.with { server in
            let log = Recorder()
            // No session token: the built-in endpoint refuses.
            let bird = Self.client(server.options(token: nil))
            defer { bird.disconnect() }
            bird.record(into: log)
            bird.subscribe("private-room-2").record(
                [BirdProtocol.Event.subscriptionError, BirdProtocol.Event.subscriptionSucceeded], into: log)
            let line = try await log.wait(prefix: "bird:subscription_error")
            #expect(line.contains(#""type":"AuthError""#) && line.contains(#""status":"#), "\(line)")

            struct Refused: Error {}
            let other = Self.client(server.options(authorizer: { _, _ in throw Refused() }))
            defer { other.disconnect() }
            other.subscribe("private-room-3").record([BirdProtocol.Event.subscriptionError], into: log)
            try await log.wait(for: "authorizer error") {
                $0.hasPrefix("bird:subscription_error") && $0.contains("authorizer failed")
            }
            #expect(log.count { $0.hasPrefix("error ") } == 0, "authorizer failures are not connection errors")
            #expect(bird.state == .connected && other.state == .connected)
        }
    }

    @Test("a server rejection (bad signature) arrives on onError with no code; the connection stays")
    func serverRejection() async throws {
        try await BirdServer.with { server in
            let log = Recorder()
            let bird = Self.client(
                server.options(authorizer: { _, _ in
                    BirdAuthorization(auth: "\(TestServer.channels.key):\(String(repeating: "0", count: 64))")
                }))
            defer { bird.disconnect() }
            bird.record(into: log)
            let room = bird.subscribe("private-room-4")
            room.record([BirdProtocol.Event.subscriptionError, BirdProtocol.Event.subscriptionSucceeded], into: log)
            let line = try await log.wait(prefix: "error nil:")
            #expect(line.lowercased().contains("signature"), "\(line)")
            try await settle()
            #expect(bird.state == .connected)
            #expect(!room.isSubscribed)
            #expect(log.count { $0.hasPrefix("bird:") } == 0)
        }
    }

    @Test("signin returns the member id; member.bind receives what the API sends to #server-to-user-{id}")
    func signinAndMemberEvents() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let log = Recorder()
            let bird = Self.client(server.options(token: ada.token))
            defer { bird.disconnect() }
            bird.member.bind("order.shipped") { data in log.record("shipped \(describe(data))") }
            let me = try await bird.signin()
            #expect(me.memberId == ada.id)
            // The #server-to-user- subscription follows the signin; publish until it is in place.
            try await waitUntil(timeout: 20, "member event") { () -> Bool? in
                log.lines.isEmpty ? nil : true
            } orEvery: {
                try await server.publish("#server-to-user-\(ada.id)", "order.shipped", #"{"order":42}"#)
            }
            #expect(log.lines.first == #"shipped {"order":42}"#)
            #expect(try await bird.signin() == me, "a second signin returns the same member")
            // Without a member endpoint signin throws at once.
            let bare = Self.client(
                BirdRealtimeOptions(
                    appKey: TestServer.channels.key, wsHost: server.wsHost, deliveryQueue: DispatchQueue(label: "b"),
                    allowInsecure: true))
            defer { bare.disconnect() }
            await #expect(throws: BirdRealtimeError.self) { try await bare.signin() }
        }
    }

    @Test("terminating the member's connections: onError 4009, state failed, no reconnect")
    func terminate() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let log = Recorder()
            let bird = Self.client(server.options(token: ada.token))
            defer { bird.disconnect() }
            bird.record(into: log)
            _ = try await bird.signin()
            try await server.terminate(ada.id)
            try await log.wait(prefix: "error 4009:")
            try await log.wait(prefix: "state connected→failed")
            try await settle(0.6)
            #expect(bird.state == .failed)
            #expect(log.count { $0.hasPrefix("error 4009") } == 1)
            #expect(
                Array(log.lines.suffix(2)) == [
                    "state connected→failed", log.lines.first { $0.hasPrefix("error 4009") },
                ], "\(log.lines)")
        }
    }

    @Test("a signin with a bad signature is refused by the edge with 4009: signin() throws it, the client stops")
    func badSignin() async throws {
        try await BirdServer.with { server in
            var environment = Self.fast
            environment.perform = { request in
                let forged =
                    #"{"auth":"\#(TestServer.channels.key):\#(String(repeating: "0", count: 64))","user_data":"{\"id\":\"eve\"}"}"#
                return request.url?.path.hasSuffix("/member") == true
                    ? (Data(forged.utf8), 200) : try await BirdRealtimeEnvironment.urlSession(request)
            }
            let log = Recorder()
            let bird = Self.client(server.options(), environment)
            defer { bird.disconnect() }
            bird.record(into: log)
            let error = await #expect(throws: BirdRealtimeError.self) { try await bird.signin() }
            #expect(error?.code == 4009)
            try await log.wait(prefix: "error 4009:")
            #expect(bird.state == .failed)
        }
    }

    @Test("an unknown app key is refused with 4001: failed, reported, never retried")
    func unknownKey() async throws {
        try await BirdServer.with { server in
            let log = Recorder()
            let bird = Self.client(server.options(appKey: "nosuchkey"))
            defer { bird.disconnect() }
            bird.record(into: log)
            try await log.wait(prefix: "error 4001:")
            try await settle(0.6)
            #expect(bird.state == .failed)
            // (The first change may run on the private delivery queue before `record` registered its handler.)
            #expect(
                log.lines.filter { $0.hasPrefix("state") && $0 != "state initialized→connecting" } == [
                    "state connecting→failed"
                ])
        }
    }

    @Test("client events reach the other members, not the sender; public channels refuse them")
    func clientEvents() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let bob = try await server.signUp("bob")
            let adaLog = Recorder()
            let bobLog = Recorder()
            let adaClient = Self.client(server.options(token: ada.token))
            let bobClient = Self.client(server.options(token: bob.token))
            defer {
                adaClient.disconnect()
                bobClient.disconnect()
            }
            let adaRoom = adaClient.subscribe("presence-room-5")
            let bobRoom = bobClient.subscribe("presence-room-5")
            adaRoom.record([BirdProtocol.Event.subscriptionSucceeded, "client-typing"], into: adaLog)
            bobRoom.record([BirdProtocol.Event.subscriptionSucceeded, "client-typing"], into: bobLog)
            try await adaLog.wait(prefix: "bird:subscription_succeeded")
            try await bobLog.wait(prefix: "bird:subscription_succeeded")
            try adaRoom.trigger("client-typing", data: ["on": true])
            try await bobLog.wait(prefix: #"client-typing {"on":true}"#)
            try await settle()
            #expect(adaLog.count { $0.hasPrefix("client-typing") } == 0)

            let orders = adaClient.subscribe("orders")
            orders.record([BirdProtocol.Event.subscriptionSucceeded], into: adaLog)
            try await adaLog.wait(for: "orders") {
                $0.hasPrefix("bird:subscription_succeeded")
                    && adaLog.count { $0.hasPrefix("bird:subscription_succeeded") } == 2
            }
            #expect(throws: BirdRealtimeError.self) { try orders.trigger("client-typing", data: ["on": true]) }
            #expect(throws: BirdRealtimeError.self) { try adaRoom.trigger("typing", data: [:]) }
            #expect(throws: BirdRealtimeError.self) { try adaRoom.trigger("client-x", data: Date()) }
        }
    }

    @Test(
        "a 4301 close (client event flood) backs off and reconnects: channels resubscribe with fresh auth, the member signs in again"
    )
    func reconnectResubscribesAndSignsIn() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let log = Recorder()
            let authorized = Recorder()
            let bird = Self.client(
                server.options(
                    token: ada.token,
                    authorizer: { connectionId, channel in
                        authorized.record(connectionId)
                        return BirdServer.sign(connectionId: connectionId, channel: channel)
                    }))
            defer { bird.disconnect() }
            bird.record(into: log)
            bird.member.bind("note") { data in log.record("note \(describe(data))") }
            let room = bird.subscribe("private-room-6")
            room.record([BirdProtocol.Event.subscriptionSucceeded], into: log)
            _ = try await bird.signin()
            try await log.wait(prefix: "bird:subscription_succeeded")
            let first = try #require(bird.connectionId)

            for _ in 0..<12 { try? room.trigger("client-flood", data: [:]) }
            try await log.wait(prefix: "error 4301:")
            try await log.wait(prefix: "state connected→unavailable")
            try await log.wait(prefix: "state unavailable→connecting")
            try await waitUntil(timeout: 20, "resubscribed") {
                log.count { $0.hasPrefix("bird:subscription_succeeded") } == 2 ? true : nil
            }
            let second = try #require(bird.connectionId)
            #expect(first != second)
            #expect(authorized.lines == [first, second], "a fresh authorization for each connection")
            // The re-signin put the member back on its #server-to-user- channel.
            try await waitUntil(timeout: 20, "member event after reconnect") { () -> Bool? in
                log.lines.contains { $0.hasPrefix("note") } ? true : nil
            } orEvery: {
                try await server.publish("#server-to-user-\(ada.id)", "note", #"{"after":"reconnect"}"#)
            }
            #expect(log.count { $0.hasPrefix("signin-error") } == 0)
        }
    }

    @Test("a failing automatic re-signin after a reconnect goes to onSigninError; channels are unaffected")
    func resigninFailure() async throws {
        try await BirdServer.with { server in
            let ada = try await server.signUp("ada")
            let memberCalls = Recorder()
            var environment = Self.fast
            environment.perform = { request in
                if request.url?.path.hasSuffix("/member") == true {
                    memberCalls.record("call")
                    if memberCalls.lines.count > 1 { return (Data(#"{"error":"down"}"#.utf8), 503) }
                }
                return try await BirdRealtimeEnvironment.urlSession(request)
            }
            let log = Recorder()
            let bird = Self.client(server.options(token: ada.token), environment)
            defer { bird.disconnect() }
            bird.record(into: log)
            let room = bird.subscribe("private-room-8")
            room.record([BirdProtocol.Event.subscriptionSucceeded], into: log)
            _ = try await bird.signin()
            try await log.wait(prefix: "bird:subscription_succeeded")
            for _ in 0..<12 { try? room.trigger("client-flood", data: [:]) }
            let line = try await log.wait(prefix: "signin-error")
            #expect(line.contains("503"), "\(line)")
            try await waitUntil(timeout: 20, "resubscribed") {
                log.count { $0.hasPrefix("bird:subscription_succeeded") } == 2 ? true : nil
            }
            #expect(bird.state == .connected)
        }
    }

    @Test("a server restart (close 4200) reconnects at once, backs off while the server is away, and resubscribes once it is back")
    func serverRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bird-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestServer.start(dataDirectory: directory, channels: BirdServer.channels)
        let port = first.port
        let log = Recorder()
        let bird = Self.client(BirdServer(server: first).options())
        defer { bird.disconnect() }
        bird.record(into: log)
        bird.subscribe("orders").record([BirdProtocol.Event.subscriptionSucceeded, "e"], into: log)
        try await log.wait(prefix: "bird:subscription_succeeded")
        await first.stop()
        try await log.wait(prefix: "error 4200")
        try await log.wait(prefix: "state connecting→unavailable")
        #expect(log.count { $0.hasPrefix("state connected→connecting") } == 1, "4200: straight back to connecting")
        let second = try await TestServer.start(dataDirectory: directory, channels: BirdServer.channels) {
            $0.port = port
        }
        do {
            try await waitUntil(timeout: 20, "resubscribed") {
                log.count { $0.hasPrefix("bird:subscription_succeeded") } == 2 ? true : nil
            }
            try await BirdServer(server: second).publish("orders", "e", "1")
            try await log.wait(prefix: "e 1")
            #expect(log.count { $0.hasPrefix("error") } == 1, "only the shutdown's 4200")
        } catch {
            await second.stop()
            throw error
        }
        await second.stop()
    }
}
