import BmobWire
import Testing

/// ``PusherEventPrefix``: event names in each family, classification, and translation between them.
@Suite struct PusherEventPrefixTests {
    @Test func names() {
        #expect(PusherEventPrefix.pusher.protocolEvent("subscribe") == "pusher:subscribe")
        #expect(PusherEventPrefix.bird.protocolEvent("subscribe") == "bird:subscribe")
        #expect(PusherEventPrefix.pusher.internalEvent("member_added") == "pusher_internal:member_added")
        #expect(PusherEventPrefix.bird.internalEvent("member_added") == "bird_internal:member_added")
    }

    @Test(arguments: [
        (PusherEventPrefix.pusher, "pusher:subscribe", PusherEventName.protocolEvent("subscribe")),
        (.pusher, "pusher_internal:subscription_succeeded", .internalEvent("subscription_succeeded")),
        (.pusher, "bird:subscribe", .applicationEvent("bird:subscribe")),
        (.pusher, "client-typing", .clientEvent("client-typing")),
        (.pusher, "my-event", .applicationEvent("my-event")),
        (.pusher, "pusher:", .protocolEvent("")),
        (.pusher, "Pusher:subscribe", .applicationEvent("Pusher:subscribe")),
        (.pusher, "pusher:\u{301}subscribe", .protocolEvent("\u{301}subscribe")),
        (.bird, "bird:subscribe", .protocolEvent("subscribe")),
        (.bird, "bird_internal:member_removed", .internalEvent("member_removed")),
        (.bird, "pusher:subscribe", .applicationEvent("pusher:subscribe")),
        (.bird, "pusher_internal:x", .applicationEvent("pusher_internal:x")),
        (.bird, "client-", .clientEvent("client-")),
    ])
    func classify(prefix: PusherEventPrefix, name: String, expected: PusherEventName) {
        #expect(prefix.classify(name) == expected)
    }

    @Test func translate() {
        #expect(PusherEventPrefix.bird.translate("pusher:subscribe", from: .pusher) == "bird:subscribe")
        #expect(PusherEventPrefix.pusher.translate("bird:subscribe", from: .bird) == "pusher:subscribe")
        #expect(
            PusherEventPrefix.bird.translate("pusher_internal:member_added", from: .pusher)
                == "bird_internal:member_added")
        #expect(
            PusherEventPrefix.pusher.translate("bird_internal:member_added", from: .bird)
                == "pusher_internal:member_added")
        #expect(PusherEventPrefix.bird.translate("client-x", from: .pusher) == "client-x")
        #expect(PusherEventPrefix.bird.translate("my-event", from: .pusher) == "my-event")
        #expect(PusherEventPrefix.pusher.translate("pusher:ping", from: .pusher) == "pusher:ping")
        // Round trips both ways.
        for name in ["pusher:error", "pusher_internal:subscription_count", "client-a", "x"] {
            let bird = PusherEventPrefix.bird.translate(name, from: .pusher)
            #expect(PusherEventPrefix.pusher.translate(bird, from: .bird) == name)
        }
    }

    @Test func reserved() {
        for name in ["pusher:x", "pusher_internal:x", "bird:x", "bird_internal:x", "pusher:"] {
            #expect(PusherEventPrefix.isReserved(name))
        }
        for name in ["client-x", "my-event", "pusherx", "bird_x", "PUSHER:x", ""] {
            #expect(!PusherEventPrefix.isReserved(name))
        }
    }
}
