package import BmobIO

/// The listeners of one event loop, by key, and the events on their way to them. Loop-confined: the hub
/// (``RealtimeHub``) hands each event to every loop that has listeners for its key, once, and the loop fans it
/// out here without any lock, a step at a time (``step()``, ``drive(_:)``), so that it serves its other
/// connections during a fan-out to many listeners.
///
/// Generic over the key (what listeners subscribe to: a socket.io door's app, table, action and object; a
/// channel's name) and the listener type, whose ``RealtimeListener/Payload`` is what events carry. The
/// listener type is concrete, not an existential, so each delivery is a direct call.
package final class RealtimeLoopIndex<Key: Hashable & Sendable, Listener: RealtimeListener> {
    /// An event as the index queues it.
    package typealias Event = RealtimeQueuedEvent<Key, Listener.Payload>

    /// One key's listeners: an array to walk at delivery (the hot path, once per listener per event) and
    /// positions for O(1) removal by swapping with the last. A class, so updates happen in place inside the
    /// dictionary instead of copying the array.
    private final class Group {
        var listeners: [Listener] = []
        var positions: [ObjectIdentifier: Int] = [:]
        /// Changes with every addition and removal (see ``RealtimeRun/membershipVersion``).
        var version = 0
    }

    private var groups: [Key: Group] = [:]

    /// Listener calls per ``step()``: few enough that other connections on the loop wait a couple of
    /// milliseconds at most for a fan-out, however many subscribers it has.
    package let stepSize: Int
    /// Events not yet started, from `queueHead` on.
    private var queue: [Event] = []
    private var queueHead = 0
    /// The run under way.
    private var run: RealtimeRun<Key, Listener>?
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
    /// - Returns: whether it is the loop's first listener for the key (the hub must then be told).
    package func add(_ listener: Listener, key: Key) -> Bool {
        let group: Group
        if let existing = groups[key] {
            group = existing
        } else {
            group = Group()
            groups[key] = group
        }
        let id = ObjectIdentifier(listener)
        guard group.positions[id] == nil else { return false }
        group.version &+= 1
        group.positions[id] = group.listeners.count
        group.listeners.append(listener)
        return group.listeners.count == 1
    }

    /// Removes a listener.
    ///
    /// - Returns: whether the loop has no listener left for the key (the hub must then be told).
    package func remove(_ listener: Listener, key: Key) -> Bool {
        guard let group = groups[key], let position = group.positions.removeValue(forKey: ObjectIdentifier(listener))
        else { return false }
        group.version &+= 1
        let last = group.listeners.removeLast()
        if position < group.listeners.count {
            group.listeners[position] = last
            group.positions[ObjectIdentifier(last)] = position
        }
        guard group.listeners.isEmpty else { return false }
        groups[key] = nil
        return true
    }

    // MARK: - Delivery

    /// Queues an event for delivery, in order. It joins the run under way when that run is for its key, no
    /// other event waits, and the key's listeners are the ones the run began with.
    ///
    /// - Returns: whether the caller must start ``drive(_:)`` (no fan-out is under way).
    package func enqueue(_ event: Event) -> Bool {
        if let run, queueHead == queue.count, run.key == event.key,
            groups[event.key]?.version == run.membershipVersion
        {
            run.append(event.payload)
            return false
        }
        queue.append(event)
        guard !driving else { return false }
        driving = true
        return true
    }

    /// Makes up to ``stepSize`` listener calls for the queued events.
    ///
    /// Events go out one run at a time (``RealtimeRun``): consecutive queued events of one key form a run, and
    /// each listener of the key gets the payloads it lacks joined into one call (one write per connection
    /// instead of one per event, when events queued up while the loop was busy). A run reaches all its
    /// listeners before the next run starts, so every listener sees events in queue order, also one that
    /// listens to several keys.
    ///
    /// - Returns: whether work is left (then call again, after the loop has served other work).
    package func step() -> Bool {
        var budget = stepSize
        while budget > 0 {
            if run?.isDone ?? true {
                run = nil
                guard startNextRun() else { return stop() }
            }
            budget -= run!.walk(budget: budget)
        }
        if run?.isDone ?? true, queueHead == queue.count {
            run = nil
            return stop()
        }
        return true
    }

    /// Ends a drive: nothing is queued or under way. Returns `false` for ``step()`` to pass on.
    private func stop() -> Bool {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        driving = false
        return false
    }

    /// Runs ``step()`` on the index's loop until the queue is empty, handing the loop back between steps, so
    /// that one event for many listeners does not hold up the loop's other connections for the whole fan-out.
    /// Call it on the loop, when ``enqueue(_:)`` says so.
    package static func drive(_ index: LoopBound<RealtimeLoopIndex>) {
        guard index.value.step() else { return }
        index.loop.execute { drive(index) }
    }

    /// Starts a run with the next events from the queue; `false` when the queue is empty.
    private func startNextRun() -> Bool {
        while queueHead < queue.count {
            let first = queue[queueHead].key
            var end = queueHead + 1
            while end < queue.count, queue[end].key == first { end += 1 }
            let group = groups[first]
            if let group {
                // The run walks a copy of the listeners: one may unsubscribe while it handles an event (its
                // connection failing, say), or while the run goes on. Listeners that come meanwhile get the
                // next run.
                run = RealtimeRun(
                    key: first, membershipVersion: group.version, listeners: group.listeners,
                    payloads: queue[queueHead..<end].map(\.payload))
            }
            queueHead = end
            if queueHead >= 64 && queueHead * 2 >= queue.count {
                // Under steady load the queue may never run empty: drop what is done now and then.
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            if group != nil { return true }
        }
        return false
    }

    /// How many listeners the loop holds for the key.
    package func count(_ key: Key) -> Int {
        groups[key]?.listeners.count ?? 0
    }
}
