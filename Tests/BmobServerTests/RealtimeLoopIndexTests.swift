import BmobServer
import BmobWire
import Testing

/// The per-loop listener index: first/last signals for the feed, removal from anywhere, delivery to exactly
/// the listeners of a key.
@Suite struct RealtimeLoopIndexTests {
    final class Listener: RealtimeListener {
        var received: [[UInt8]] = []
        func realtimeEvent(encodedFrame: [UInt8]) { received.append(encodedFrame) }
    }

    let chat = RealtimeSubscriptionKey(tableName: "Chat", action: .updateTable, objectId: "")
    let row = RealtimeSubscriptionKey(tableName: "Chat", action: .updateRow, objectId: "a1")

    @Test func firstAndLastListenersAreReportedAndDeliveryReachesOnlyTheKey() {
        let index = RealtimeLoopIndex()
        let listeners = (0..<5).map { _ in Listener() }
        #expect(index.add(listeners[0], appId: "app", key: chat))
        for listener in listeners.dropFirst() {
            #expect(!index.add(listener, appId: "app", key: chat))
        }
        #expect(!index.add(listeners[0], appId: "app", key: chat))  // again: no change
        #expect(index.add(listeners[0], appId: "app", key: row))
        #expect(index.add(listeners[1], appId: "other", key: chat))
        #expect(index.count(appId: "app", key: chat) == 5)

        index.deliver(appId: "app", key: chat, encodedFrame: [1])
        #expect(listeners.allSatisfy { $0.received == [[1]] })
        index.deliver(appId: "app", key: row, encodedFrame: [2])
        #expect(listeners[0].received == [[1], [2]])
        #expect(listeners[1].received == [[1]])

        // Remove from the middle, the end and the start; the rest still get events.
        #expect(!index.remove(listeners[2], appId: "app", key: chat))
        #expect(!index.remove(listeners[4], appId: "app", key: chat))
        #expect(!index.remove(listeners[0], appId: "app", key: chat))
        #expect(!index.remove(listeners[0], appId: "app", key: chat))  // not there any more
        index.deliver(appId: "app", key: chat, encodedFrame: [3])
        #expect(listeners[1].received.last == [3])
        #expect(listeners[3].received.last == [3])
        #expect(listeners[2].received.last == [1])
        #expect(!index.remove(listeners[1], appId: "app", key: chat))
        #expect(index.remove(listeners[3], appId: "app", key: chat))
        #expect(index.count(appId: "app", key: chat) == 0)
        #expect(index.count(appId: "other", key: chat) == 1)
    }
}
