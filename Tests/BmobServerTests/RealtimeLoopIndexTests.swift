import BmobIO
import BmobServer
import BmobWire
import Testing

/// The per-loop listener index, generic over its key and listener (here string keys and byte payloads):
/// first/last signals for the hub, removal from anywhere, delivery to exactly the listeners of a key, in
/// steps, with queued events of one key joined and order kept.
@Suite struct RealtimeLoopIndexTests {
    final class Listener: RealtimeListener {
        var received: [[UInt8]] = []
        let onEvent: (() -> Void)?
        init(onEvent: (() -> Void)? = nil) { self.onEvent = onEvent }
        func realtimeEvent(_ payload: [UInt8]) {
            received.append(payload)
            onEvent?()
        }
    }

    typealias Index = RealtimeLoopIndex<String, Listener>
    typealias Event = RealtimeQueuedEvent<String, [UInt8]>

    let chat = "app/Chat"
    let row = "app/Chat/a1"
    let otherChat = "other/Chat"

    func event(_ key: String, _ byte: UInt8) -> Event {
        Event(key: key, payload: [byte, byte])
    }

    /// Queues `events` and steps until done; returns the steps taken.
    @discardableResult
    func deliver(_ events: [Event], to index: Index) -> Int {
        var mustDrive = false
        for event in events where index.enqueue(event) { mustDrive = true }
        guard mustDrive else { return 0 }
        var steps = 1
        while index.step() { steps += 1 }
        return steps
    }

    @Test func firstAndLastListenersAreReportedAndDeliveryReachesOnlyTheKey() {
        let index = Index()
        let listeners = (0..<5).map { _ in Listener() }
        #expect(index.add(listeners[0], key: chat))
        for listener in listeners.dropFirst() {
            #expect(!index.add(listener, key: chat))
        }
        #expect(!index.add(listeners[0], key: chat))  // again: no change
        #expect(index.add(listeners[0], key: row))
        #expect(index.add(listeners[1], key: otherChat))
        #expect(index.count(chat) == 5)

        deliver([event(chat, 1)], to: index)
        #expect(listeners.allSatisfy { $0.received == [[1, 1]] })
        deliver([event(row, 2)], to: index)
        #expect(listeners[0].received == [[1, 1], [2, 2]])
        #expect(listeners[1].received == [[1, 1]])

        // Remove from the middle, the end and the start; the rest still get events.
        #expect(!index.remove(listeners[2], key: chat))
        #expect(!index.remove(listeners[4], key: chat))
        #expect(!index.remove(listeners[0], key: chat))
        #expect(!index.remove(listeners[0], key: chat))  // not there any more
        deliver([event(chat, 3)], to: index)
        #expect(listeners[1].received.last == [3, 3])
        #expect(listeners[3].received.last == [3, 3])
        #expect(listeners[2].received.last == [1, 1])
        #expect(!index.remove(listeners[1], key: chat))
        #expect(index.remove(listeners[3], key: chat))
        #expect(index.count(chat) == 0)
        #expect(index.count(otherChat) == 1)
    }

    @Test func queuedEventsOfOneKeyInARowGoOutAsOneCallAndOrderIsKept() {
        let index = Index()
        let table = Listener(), both = Listener()
        _ = index.add(table, key: chat)
        _ = index.add(both, key: chat)
        _ = index.add(both, key: row)
        let unheard = "app/Nobody"
        deliver(
            [
                event(chat, 1), event(chat, 2), event(row, 3), event(unheard, 4), event(unheard, 5),
                event(chat, 6), event(otherChat, 7), event(chat, 8), event(chat, 9),
            ], to: index)
        // Runs of one key are joined; a key change ends a run, so order holds for a
        // listener of several keys.
        #expect(table.received == [[1, 1, 2, 2], [6, 6], [8, 8, 9, 9]])
        #expect(both.received == [[1, 1, 2, 2], [3, 3], [6, 6], [8, 8, 9, 9]])
        deliver([event(row, 10)], to: index)
        #expect(both.received.last == [10, 10])
        #expect(table.received.count == 3)
    }

    /// Ten listeners of `chat`, three calls a step, event 1 queued and its first step taken.
    func runOneStepIn() -> (Index, [Listener]) {
        let index = Index(stepSize: 3)
        let listeners = (0..<10).map { _ in Listener() }
        for listener in listeners { _ = index.add(listener, key: chat) }
        #expect(index.enqueue(event(chat, 1)))
        #expect(index.step())
        #expect(listeners.map(\.received.count) == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
        return (index, listeners)
    }

    @Test func anEventArrivingDuringARunJoinsItAndReachesEveryoneWithinALap() {
        let (index, listeners) = runOneStepIn()
        // Joins the run: the seven not yet visited get both events in one call, the first three get the
        // second on the next lap.
        #expect(!index.enqueue(event(chat, 2)))
        while index.step() {}
        for listener in listeners[..<3] { #expect(listener.received == [[1, 1], [2, 2]]) }
        for listener in listeners[3...] { #expect(listener.received == [[1, 1, 2, 2]]) }
    }

    @Test func aListenerSetThatChangesDuringARunEndsJoining() {
        let (index, listeners) = runOneStepIn()
        // A listener that comes during a run gets the runs after it, one that leaves gets none of them.
        let late = Listener()
        _ = index.add(late, key: chat)
        _ = index.remove(listeners[9], key: chat)
        #expect(!index.enqueue(event(chat, 2)))
        #expect(!index.enqueue(event(chat, 3)))
        while index.step() {}
        for listener in listeners[..<9] { #expect(listener.received == [[1, 1], [2, 2, 3, 3]]) }
        #expect(listeners[9].received == [[1, 1]])  // still in the first run's copy
        #expect(late.received == [[2, 2, 3, 3]])
        // Idle again: the next event asks for a new drive.
        #expect(index.enqueue(event(chat, 4)))
        var steps = 1
        while index.step() { steps += 1 }
        #expect(steps == 4)  // ten listeners, three a step
        #expect(late.received.last == [4, 4])
    }

    /// Random adds, removals, events and steps against what each listener must see: only events of its keys,
    /// each once, in queue order; every event queued while it stayed subscribed; none queued after it left.
    @Test(arguments: 0..<50)
    func randomTrafficKeepsEveryListenersEventsWholeAndInOrder(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let keys = [chat, row, "app/Post"]
        let index = Index(stepSize: 1 + Int(random.next() % 5))
        struct Tracked {
            let listener: Listener
            let keys: Set<Int>
            let since: Int
            var until: Int?
        }
        var tracked: [Tracked] = []
        var events: [Int] = []  // the key of each event, by number
        var driving = false
        for _ in 0..<400 {
            switch random.next() % 10 {
            case 0, 1:
                let listener = Listener()
                var mine: Set<Int> = []
                for key in 0..<keys.count where random.next() % 2 == 0 {
                    mine.insert(key)
                    _ = index.add(listener, key: keys[key])
                }
                tracked.append(Tracked(listener: listener, keys: mine, since: events.count))
            case 2:
                let live = tracked.indices.filter { tracked[$0].until == nil }
                guard let chosen = live.randomElement(using: &random) else { break }
                for key in tracked[chosen].keys { _ = index.remove(tracked[chosen].listener, key: keys[key]) }
                tracked[chosen].until = events.count
            case 3, 4, 5:
                let key = Int(random.next() % UInt64(keys.count))
                let number = events.count
                events.append(key)
                let frame = [UInt8(number >> 8), UInt8(number & 0xFF)]
                if index.enqueue(Event(key: keys[key], payload: frame)) { driving = true }
            default:
                if driving { driving = index.step() }
            }
        }
        while driving { driving = index.step() }
        for entry in tracked {
            let bytes = entry.listener.received.flatMap { $0 }
            let got = stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
            #expect(zip(got, got.dropFirst()).allSatisfy { $0 < $1 }, "in order, each once")
            #expect(got.allSatisfy { entry.keys.contains(events[$0]) }, "only its keys")
            let required = (entry.since..<(entry.until ?? events.count)).filter { entry.keys.contains(events[$0]) }
            if entry.until == nil {
                #expect(Set(required).isSubset(of: Set(got)), "every event queued while subscribed")
            } else {
                #expect(got.allSatisfy { $0 < entry.until! }, "nothing queued after it left")
            }
        }
    }

    @Test func aLongQueueOfAlternatingKeysArrivesWholeAndInOrder() {
        let index = Index(stepSize: 1)
        let both = Listener()
        _ = index.add(both, key: chat)
        _ = index.add(both, key: row)
        var next = 0
        var driving = false
        // Two events come per step while one goes out (runs of one event: the keys alternate), so the queue
        // grows, then drains; it drops its done part as it goes.
        repeat {
            for _ in 0..<2 where next < 200 {
                if index.enqueue(event(next % 2 == 0 ? chat : row, UInt8(next))) { driving = true }
                next += 1
            }
            if driving { driving = index.step() }
        } while next < 200 || driving
        #expect(both.received == (0..<200).map { [UInt8($0), UInt8($0)] })
    }

    @Test func theLoopServesOtherWorkBetweenStepsOfAFanOut() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let loop = group.next()
        final class Log { var entries: [String] = [] }
        let listeners = 2_000
        let log = try await loop.submit {
            let log = LoopBound(Log(), loop: loop)
            let index = LoopBound(Index(stepSize: 100), loop: loop)
            for _ in 0..<listeners {
                _ = index.value.add(Listener { log.value.entries.append("listener") }, key: chat)
            }
            // The first step runs at once and queues the second; work queued now runs right after that one,
            // not after the fan-out's last step.
            if index.value.enqueue(event(chat, 1)) { Index.drive(index) }
            loop.execute { log.value.entries.append("other work") }
            return log
        }
        var entries: [String] = []
        for _ in 0..<500 where entries.count < listeners + 1 {
            entries = try await loop.submit { log.value.entries }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(entries.count == listeners + 1)
        #expect(entries.firstIndex(of: "other work") == 200)
    }
}
