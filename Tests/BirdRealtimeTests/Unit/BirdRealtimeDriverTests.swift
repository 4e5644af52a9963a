@testable import BirdRealtime
import BmobRealtime
import BmobTesting
import BmobWire
import Dispatch
import Foundation
import Testing

/// The client over scripted transports and a manual clock: what it does with each close-code class a peer sends,
/// its backoff waits as requested from the clock (no real sleeping), and hostile frames.
@Suite("BirdRealtime: the driver over a fake edge and a manual clock")
struct BirdRealtimeDriverTests {
    static func client(_ edge: FakeEdge, random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) })
        -> BirdRealtime
    {
        BirdRealtimeEnvironment.$current.withValue(edge.environment(random: random)) {
            BirdRealtime(
                options: .init(
                    appKey: "key", wsHost: "127.0.0.1:1", deliveryQueue: DispatchQueue(label: "d"), allowInsecure: true)
            )
        }
    }

    @Test("manual clock: every wait after consecutive failures is in [1 s, cap], the cap doubling 1, 2, 4 … 30 s")
    func backoffBounds() async throws {
        let edge = FakeEdge()
        edge.connectionsFail = true
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        let backoff = BirdReconnectBackoff()
        for failure in 1...9 {
            try await waitUntil(timeout: 20, "reconnect wait \(failure)") {
                edge.clock.isWaiting(.reconnect) ? true : nil
            }
            #expect(bird.state == .unavailable)
            let delay = try #require(edge.clock.durations(.reconnect).last)
            #expect(
                delay >= .seconds(1) && delay <= backoff.cap(afterFailures: failure), "failure \(failure): \(delay)")
            edge.clock.fire(.reconnect)
        }
        #expect(edge.transports.count >= 9)
    }

    @Test("manual clock: with the random source at its top the waits are exactly the caps; a connection resets them")
    func backoffCapsAndReset() async throws {
        let edge = FakeEdge()
        edge.connectionsFail = true
        let bird = Self.client(edge, random: { 1 })
        defer { bird.disconnect() }
        for failure in 1...7 {
            try await waitUntil(timeout: 20, "reconnect wait \(failure)") {
                edge.clock.durations(.reconnect).count == failure ? true : nil
            }
            edge.clock.fire(.reconnect)
        }
        #expect(edge.clock.durations(.reconnect) == [1, 2, 4, 8, 16, 30, 30].map { RealtimeDuration.seconds($0) })
        edge.connectionsFail = false
        let transport = try await edge.transport(7)
        transport.establish()
        try await waitUntil(timeout: 20, "connected") { bird.state == .connected ? true : nil }
        transport.serverCloses(1006)
        try await waitUntil(timeout: 20, "next wait") { edge.clock.durations(.reconnect).count == 8 ? true : nil }
        #expect(edge.clock.durations(.reconnect).last == .seconds(1))
    }

    @Test("a peer's 4200–4299 close reconnects at once: a new transport, no reconnect wait")
    func immediateReconnect() async throws {
        let edge = FakeEdge()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        let first = try await edge.transport(0)
        first.establish("1.1")
        try await waitUntil(timeout: 20, "connected") { bird.state == .connected ? true : nil }
        first.serverSends(#"{"event":"bird:error","data":{"code":4200,"message":"shutting down"}}"#)
        first.serverCloses(4200)
        let second = try await edge.transport(1)
        #expect(edge.clock.durations(.reconnect).isEmpty)
        second.establish("2.2")
        try await waitUntil(timeout: 20, "connected again") { bird.connectionId == "2.2" ? true : nil }
    }

    @Test("a peer's 4100 or 1006 close backs off through the clock; a 4001 close is final")
    func backoffAndRefusal() async throws {
        let edge = FakeEdge()
        let log = Recorder()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        bird.record(into: log)
        let first = try await edge.transport(0)
        first.establish()
        try await waitUntil(timeout: 20, "connected") { bird.state == .connected ? true : nil }
        first.serverCloses(4100)
        try await waitUntil(timeout: 20, "wait") { edge.clock.isWaiting(.reconnect) ? true : nil }
        #expect(edge.transports.count == 1)
        edge.clock.fire(.reconnect)
        let second = try await edge.transport(1)
        second.serverCloses(1006)
        try await waitUntil(timeout: 20, "second wait") { edge.clock.durations(.reconnect).count == 2 ? true : nil }
        edge.clock.fire(.reconnect)
        let third = try await edge.transport(2)
        third.serverSends(#"{"event":"bird:error","data":{"code":4001,"message":"App key key does not exist"}}"#)
        third.serverCloses(4001)
        try await log.wait(prefix: "error 4001: App key key does not exist")
        #expect(bird.state == .failed)
        try await settle()
        #expect(edge.transports.count == 3)
        #expect(!edge.clock.isWaiting(.reconnect))
    }

    @Test("silence: after activity_timeout the client pings; no answer within 30 s replaces the connection")
    func pingAndPongTimeout() async throws {
        let edge = FakeEdge()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        let first = try await edge.transport(0)
        first.establish()
        try await waitUntil(timeout: 20, "activity timer") { edge.clock.isWaiting(.activity) ? true : nil }
        // A frame since the timer started only re-arms it.
        first.serverSends(#"{"event":"bird:pong","data":{}}"#)
        try await settle(0.05)
        edge.clock.fire(.activity)
        try await waitUntil(timeout: 20, "re-armed") {
            edge.clock.durations(.activity).count == 2 && edge.clock.isWaiting(.activity) ? true : nil
        }
        #expect(!first.sent.contains(#"{"event":"bird:ping","data":{}}"#))
        edge.clock.fire(.activity)
        try await waitUntil(timeout: 20, "ping") {
            first.sent.contains(#"{"event":"bird:ping","data":{}}"#) ? true : nil
        }
        try await waitUntil(timeout: 20, "pong timer") { edge.clock.isWaiting(.pong) ? true : nil }
        edge.clock.fire(.pong)
        _ = try await edge.transport(1)
        #expect(first.closedWith?.rawValue == 4201)
    }

    @Test(
        "hostile frames from the peer: malformed, oversized, deeply nested, mistyped — ignored, and the client keeps working"
    )
    func hostileFrames() async throws {
        let edge = FakeEdge()
        let log = Recorder()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        bird.record(into: log)
        let channel = bird.subscribe("orders")
        channel.record([BirdProtocol.Event.subscriptionSucceeded, "e"], into: log)
        let presence = try #require(bird.subscribe("presence-x") as? PresenceChannel)
        let transport = try await edge.transport(0)
        // Before the handshake: garbage, then an establishing frame with a bad socket id (dropped with 1002).
        transport.serverSends("not json")
        transport.serverSends(#"{"event":"bird:connection_established","data":"{\"socket_id\":\"1.1; drop\"}"}"#)
        try await waitUntil(timeout: 20, "dropped") { transport.closedWith?.rawValue == 1002 ? true : nil }
        try await waitUntil(timeout: 20, "wait") { edge.clock.isWaiting(.reconnect) ? true : nil }
        edge.clock.fire(.reconnect)
        let next = try await edge.transport(1)
        next.establish("3.3")
        try await waitUntil(timeout: 20, "connected") { bird.state == .connected ? true : nil }
        next.serverSends(#"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#)
        try await log.wait(prefix: "bird:subscription_succeeded")

        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let hostile: [String] = [
            "", "null", "[]", "42", #""string""#, "{", "{}", #"{"event":1}"#, #"{"event":""}"#,
            #"{"event":"\#(String(repeating: "x", count: 300))","channel":"orders"}"#,
            #"{"event":"e","channel":"bad channel!","data":"1"}"#, #"{"event":"e","channel":7}"#,
            #"{"event":"e","channel":"orders","user_id":[1]}"#,
            #"{"event":"e","channel":"orders","data":"\#(String(repeating: "a", count: 2 << 20))"}"#,
            #"{"event":"e","channel":"orders","data":\#(deep)}"#,
            #"{"event":"e","channel":"orders","data":"\ud800"}"#, "{\"event\":\"e\u{0}\",\"channel\":\"orders\"}",
            #"{"event":"bird:error","data":"not an object"}"#, #"{"event":"bird:error","data":{"code":"4009"}}"#,
            #"{"event":"bird:error","data":{"code":99999999999999999999}}"#,
            #"{"event":"bird:connection_established","data":{"socket_id":"9.9"}}"#,
            #"{"event":"bird:signin_success","data":{"user_data":"{\"id\":\"u\"}"}}"#,
            #"{"event":"bird_internal:subscription_succeeded","channel":"presence-x","data":"{\"presence\":[1,2]}"}"#,
            #"{"event":"bird_internal:member_added","channel":"presence-x","data":"{\"user_id\":{}}"}"#,
            #"{"event":"bird_internal:member_removed","channel":"nope","data":"{}"}"#,
            #"{"event":"bird_internal:subscription_succeeded","channel":"private-never","data":"{}"}"#,
            ##"{"event":"x","channel":"#server-to-user-someone","data":"1"}"##,
            #"{"event":"bird:ping","data":[]}"#, #"{"event":"bird:unknown","data":{}}"#,
        ]
        for text in hostile { next.serverSends(text) }
        next.serverSendsBinary([0xFF, 0x00, 0x81])
        next.serverSendsBinary(Array(repeating: 0x7B, count: 1 << 16))
        next.serverSends(#"{"event":"e","channel":"orders","data":"{\"ok\":true}"}"#)
        try await log.wait(prefix: #"e {"ok":true}"#)
        #expect(bird.state == .connected)
        #expect(bird.connectionId == "3.3")
        #expect(presence.members.isEmpty)
        #expect(log.count { $0.hasPrefix("e ") } == 1, "\(log.lines)")
        // The only error reported is the well-formed-enough bird:error frames' (code absent or unreadable).
        #expect(log.lines.allSatisfy { !$0.hasPrefix("state connected→") })
    }

    @Test(
        "invalid or reserved channel names emit bird:subscription_error and send nothing; unsubscribe sends bird:unsubscribe"
    )
    func channelNamesAndUnsubscribe() async throws {
        let edge = FakeEdge()
        let log = Recorder()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        for name in ["bad name!", "", String(repeating: "a", count: 165), "#server-to-user-me", "private-encrypted-x"] {
            bird.subscribe(name).record([BirdProtocol.Event.subscriptionError], into: log)
        }
        let transport = try await edge.transport(0)
        transport.establish()
        try await waitUntil(timeout: 20, "five errors") { log.lines.count == 5 ? true : nil }
        #expect(log.lines.allSatisfy { $0.contains(#""type":"InvalidChannel""#) })
        let orders = bird.subscribe("orders")
        try await waitUntil(timeout: 20, "subscribe") { transport.sent.count == 1 ? true : nil }
        transport.serverSends(#"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#)
        try await waitUntil(timeout: 20, "subscribed") { orders.isSubscribed ? true : nil }
        bird.unsubscribe("orders")
        #expect(!orders.isSubscribed)
        #expect(
            transport.sent == [
                #"{"event":"bird:subscribe","data":{"auth":"","channel":"orders"}}"#,
                #"{"event":"bird:unsubscribe","data":{"channel":"orders"}}"#,
            ])
    }

    @Test(
        "subscription_succeeded is sticky: a handler bound after it was delivered gets it once; later successes go to all"
    )
    func stickySuccess() async throws {
        let edge = FakeEdge()
        let log = Recorder()
        let bird = Self.client(edge)
        defer { bird.disconnect() }
        let orders = bird.subscribe("orders")
        orders.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in log.record("early") }
        let transport = try await edge.transport(0)
        transport.establish()
        transport.serverSends(#"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#)
        try await log.wait(prefix: "early")
        try await settle(0.05)
        orders.bind(BirdProtocol.Event.subscriptionSucceeded) { data in log.record("late \(describe(data))") }
        try await log.wait(prefix: "late {}")
        try await settle(0.05)
        #expect(log.lines == ["early", "late {}"])
        transport.serverCloses(4200)
        let second = try await edge.transport(1)
        second.establish("2.2")
        second.serverSends(#"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#)
        try await waitUntil(timeout: 20, "both again") { log.lines.count == 4 ? true : nil }
        #expect(Set(log.lines.suffix(2)) == ["early", "late {}"])
    }

    @Test("lifetime: a connected client lives without app references until disconnect(), then it is freed")
    func lifetime() async throws {
        let edge = FakeEdge()
        let log = Recorder()
        weak var weakClient: BirdRealtime?
        do {
            let bird = Self.client(edge)
            bird.subscribe("orders").record(["e"], into: log)
            weakClient = bird
        }
        let transport = try await edge.transport(0)
        transport.establish()
        transport.serverSends(#"{"event":"bird_internal:subscription_succeeded","channel":"orders","data":"{}"}"#)
        transport.serverSends(#"{"event":"e","channel":"orders","data":"1"}"#)
        try await log.wait(prefix: "e 1")
        do {
            let client = try #require(weakClient, "kept alive while connected")
            client.disconnect()
        }
        try await waitUntil(timeout: 20, "freed") { weakClient == nil ? true : nil }
        #expect(transport.closedWith == .normalClosure)
    }

    @Test("a signin() waiting for the connection throws CancellationError when its task is cancelled")
    func signinCancellation() async throws {
        let edge = FakeEdge()
        let bird = BirdRealtimeEnvironment.$current.withValue(edge.environment()) {
            BirdRealtime(
                options: .init(
                    appKey: "key", wsHost: "127.0.0.1:1", deliveryQueue: DispatchQueue(label: "d"),
                    memberAuthEndpoint: URL(string: "http://127.0.0.1:1/member")!, allowInsecure: true))
        }
        defer { bird.disconnect() }
        let task = Task { try await bird.signin() }
        try await settle(0.1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // A later disconnect has no waiter left to resume.
        bird.disconnect()
        #expect(bird.state == .disconnected)
    }

    @Test("hostile data handed to trigger: non-JSON values and excessive nesting throw instead of crashing")
    func hostileTriggerData() throws {
        #expect(throws: BirdRealtimeError.self) { try BirdJSON.value(Date()) }
        #expect(throws: BirdRealtimeError.self) { try BirdJSON.value(Double.nan) }
        #expect(throws: BirdRealtimeError.self) { try BirdJSON.value([1: "a"]) }
        var nested: Any = 1
        for _ in 0..<100 { nested = [nested] }
        #expect(throws: BirdRealtimeError.self) { try BirdJSON.value(nested) }
        let optional: Int? = nil
        #expect(
            try BirdJSON.value(["a": optional as Any, "b": [true, 1, 2.5, "s", NSNull()]]) == [
                "a": nil, "b": [true, 1, 2.5, "s", nil],
            ])
    }
}
