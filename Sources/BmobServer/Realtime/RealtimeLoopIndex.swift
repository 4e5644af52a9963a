package import BmobIO

/// The listeners of one event loop, by app and key. Loop-confined: the feed hands each event to every loop
/// that has listeners for its key, once, and the loop fans it out here without any lock.
package final class RealtimeLoopIndex {
    /// One key's listeners: an array to walk at delivery (the hot path, once per listener per event) and
    /// positions for O(1) removal by swapping with the last. A class, so updates happen in place inside the
    /// nested dictionaries instead of copying the array.
    private final class Group {
        var listeners: [any RealtimeListener] = []
        var positions: [ObjectIdentifier: Int] = [:]
    }

    private var groups: [String: [RealtimeSubscriptionKey: Group]] = [:]

    /// Listener calls per ``step()``: about 2 ms of writes to loopback sockets, so other connections on the
    /// loop wait that long at most for a fan-out, however many subscribers it has.
    package let stepSize: Int
    /// Events not yet started, from `queueHead` on.
    private var queue: [RealtimeQueuedEvent] = []
    private var queueHead = 0
    /// The run under way: its listeners (a copy), its frames and the next listener to call.
    private var runListeners: [any RealtimeListener] = []
    private var runFrame: [UInt8] = []
    private var runPosition = 0
    /// Whether a ``drive(_:)`` is under way.
    private var driving = false

    /// An empty index.
    ///
    /// - Parameter stepSize: listener calls per ``step()``.
    package init(stepSize: Int = 256) {
        precondition(stepSize > 0, "a step must deliver something")
        self.stepSize = stepSize
    }

    /// Registers a listener.
    ///
    /// - Returns: whether it is the loop's first listener for the key (the feed must then be told).
    package func add(_ listener: any RealtimeListener, appId: String, key: RealtimeSubscriptionKey) -> Bool {
        let group: Group
        if let existing = groups[appId]?[key] {
            group = existing
        } else {
            group = Group()
            groups[appId, default: [:]][key] = group
        }
        let id = ObjectIdentifier(listener)
        guard group.positions[id] == nil else { return false }
        group.positions[id] = group.listeners.count
        group.listeners.append(listener)
        return group.listeners.count == 1
    }

    /// Removes a listener.
    ///
    /// - Returns: whether the loop has no listener left for the key (the feed must then be told).
    package func remove(_ listener: any RealtimeListener, appId: String, key: RealtimeSubscriptionKey) -> Bool {
        guard let group = groups[appId]?[key], let position = group.positions.removeValue(forKey: ObjectIdentifier(listener))
        else { return false }
        let last = group.listeners.removeLast()
        if position < group.listeners.count {
            group.listeners[position] = last
            group.positions[ObjectIdentifier(last)] = position
        }
        guard group.listeners.isEmpty else { return false }
        groups[appId]?[key] = nil
        if groups[appId]?.isEmpty ?? false { groups[appId] = nil }
        return true
    }

    // MARK: - Delivery

    /// Queues events for delivery, in order.
    ///
    /// - Returns: whether the caller must start ``drive(_:)`` (no fan-out is under way).
    package func enqueue(_ event: RealtimeQueuedEvent) -> Bool {
        queue.append(event)
        guard !driving else { return false }
        driving = true
        return true
    }

    /// Delivers up to ``stepSize`` listener calls of the queued events.
    ///
    /// Events go out one run at a time: consecutive queued events of one key form a run, and each listener of
    /// the key gets the run's frames joined, in one call (one write per connection instead of one per event,
    /// when events queued up while the loop was busy). A run reaches all its listeners before the next run
    /// starts, so every listener sees events in queue order, also one that listens to several keys.
    ///
    /// - Returns: whether work is left (then call again, after the loop has served other work).
    package func step() -> Bool {
        var budget = stepSize
        while budget > 0 {
            if runPosition == runListeners.count {
                finishRun()
                guard startNextRun() else {
                    driving = false
                    return false
                }
            }
            let end = min(runPosition + budget, runListeners.count)
            for position in runPosition..<end {
                runListeners[position].realtimeEvent(encodedFrame: runFrame)
            }
            budget -= end - runPosition
            runPosition = end
        }
        if runPosition == runListeners.count && queueHead == queue.count {
            finishRun()
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            driving = false
            return false
        }
        return true
    }

    /// Runs ``step()`` on the index's loop until the queue is empty, handing the loop back between steps, so
    /// that one event for many listeners does not hold up the loop's other connections for the whole fan-out.
    /// Call it on the loop, when ``enqueue(_:)`` says so.
    package static func drive(_ index: LoopBound<RealtimeLoopIndex>) {
        guard index.value.step() else { return }
        index.loop.execute { drive(index) }
    }

    /// Lets go of the finished run's listeners and frames.
    private func finishRun() {
        runListeners = []
        runFrame = []
        runPosition = 0
    }

    /// Takes the next run from the queue; `false` when the queue is empty.
    private func startNextRun() -> Bool {
        while queueHead < queue.count {
            let first = queue[queueHead]
            var end = queueHead + 1
            while end < queue.count, queue[end].key == first.key, queue[end].appId == first.appId { end += 1 }
            let run = queue[queueHead..<end]
            let listeners = groups[first.appId]?[first.key]?.listeners
            if listeners != nil {
                if run.count == 1 {
                    runFrame = first.encodedFrame
                } else {
                    var joined: [UInt8] = []
                    joined.reserveCapacity(run.reduce(0) { $0 + $1.encodedFrame.count })
                    for event in run { joined.append(contentsOf: event.encodedFrame) }
                    runFrame = joined
                }
            }
            queueHead = end
            if queueHead >= 64 && queueHead * 2 >= queue.count {
                // Under steady load the queue may never run empty: drop what is done now and then.
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            // A listener may unsubscribe while it handles the event (its connection failing, say), or during
            // the run's later steps: walk a copy. Listeners that come meanwhile get the next run.
            guard let listeners else { continue }
            runListeners = listeners
            runPosition = 0
            return true
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        return false
    }

    /// How many listeners the loop holds for the key.
    package func count(appId: String, key: RealtimeSubscriptionKey) -> Int {
        groups[appId]?[key]?.listeners.count ?? 0
    }
}
