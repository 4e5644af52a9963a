import BmobIO
import BmobServer
import Testing

/// The generic hub on real loops: subscriptions per loop, first/last signals across loops, and `publish`, the
/// one way into the fan-out, reaching exactly the listeners of a key, whole and in order.
@Suite struct RealtimeHubTests {
    final class Listener: RealtimeListener {
        var received: [[UInt8]] = []
        func realtimeEvent(_ payload: [UInt8]) { received.append(payload) }
    }

    typealias Hub = RealtimeHub<String, Listener>

    /// A listener made on `loop` and subscribed there to `keys`; returns it and, per key, whether the key was
    /// heard nowhere before.
    func subscribed(_ hub: Hub, on loop: EventLoop, to keys: [String]) async throws -> (LoopBound<Listener>, [Bool]) {
        try await loop.submit {
            let listener = LoopBound(Listener(), loop: loop)
            let firsts = keys.map { hub.subscribe(listener.value, to: $0, on: loop) }
            return (listener, firsts)
        }
    }

    /// What `listener` received, as one byte sequence, read on its loop. Work posted to a loop runs in order,
    /// so everything published before this call has been handed to the loop, and small fan-outs finish in
    /// their first step.
    func received(_ listener: LoopBound<Listener>) async throws -> [UInt8] {
        try await listener.loop.submit { listener.value.received.flatMap { $0 } }
    }

    @Test func publishReachesTheListenersOfItsKeyOnEveryLoopAndNoOthers() async throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let (one, two) = (group.loops[0], group.loops[1])
        let hub = Hub()
        let (a, aFirsts) = try await subscribed(hub, on: one, to: ["chat"])
        let (b, bFirsts) = try await subscribed(hub, on: one, to: ["chat", "news"])
        let (c, cFirsts) = try await subscribed(hub, on: two, to: ["chat"])
        let (d, _) = try await subscribed(hub, on: two, to: ["news"])
        #expect(aFirsts == [true])
        #expect(bFirsts == [false, true])
        #expect(cFirsts == [false], "the key is heard on another loop already")
        #expect(hub.isHeard("chat") && hub.isHeard("news") && !hub.isHeard("sport"))

        #expect(hub.publish([1], to: "chat"))
        #expect(hub.publish([2], to: "news"))
        #expect(!hub.publish([3], to: "sport"), "nobody listens")
        #expect(try await received(a) == [1])
        #expect(try await received(b) == [1, 2])
        #expect(try await received(c) == [1])
        #expect(try await received(d) == [2])
    }

    @Test func eventsArriveWholeAndInPublishOrderOnEveryLoop() async throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let hub = Hub(stepSize: 3)
        var listeners: [LoopBound<Listener>] = []
        for loop in group.loops {
            for _ in 0..<10 {
                listeners.append(try await subscribed(hub, on: loop, to: ["chat", "row"]).0)
            }
        }
        // Alternating keys, so runs end and start; a listener of both keys must still see publish order.
        let events = (0..<100).map { UInt8($0) }
        for event in events {
            hub.publish([event], to: event % 3 == 0 ? "row" : "chat")
        }
        for listener in listeners {
            // Several steps per fan-out here: ask again until the loop has caught up.
            var bytes: [UInt8] = []
            for _ in 0..<1000 where bytes.count < events.count {
                bytes = try await received(listener)
            }
            #expect(bytes == events)
        }
    }

    @Test func aListenerThatLeftGetsNothingMoreAndTheLastToLeaveSilencesTheKey() async throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let (one, two) = (group.loops[0], group.loops[1])
        let hub = Hub()
        let (a, _) = try await subscribed(hub, on: one, to: ["chat"])
        let (b, _) = try await subscribed(hub, on: two, to: ["chat"])
        hub.publish([1], to: "chat")
        let aLast = try await one.submit { hub.unsubscribe(a.value, from: "chat", on: one) }
        #expect(!aLast, "b still listens")
        let again = try await one.submit { hub.unsubscribe(a.value, from: "chat", on: one) }
        #expect(!again, "not subscribed any more")
        hub.publish([2], to: "chat")
        #expect(try await received(a) == [1])
        #expect(try await received(b) == [1, 2])
        #expect(try await two.submit { hub.unsubscribe(b.value, from: "chat", on: two) })
        #expect(!hub.isHeard("chat"))
        #expect(!hub.publish([3], to: "chat"))
        #expect(try await received(b) == [1, 2])
    }
}
