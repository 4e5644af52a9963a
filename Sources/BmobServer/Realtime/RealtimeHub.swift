package import BmobIO

/// A per-loop fan-out of events to listeners by key: the one path every realtime event takes to its
/// subscribers, whether it comes from the journal (through a door's encoder) or not (a server-side publish, a
/// client event a door relays).
///
/// Each door has its own hub, keyed and encoded its own way: the socket.io door's keys are (app, table,
/// action, object) and its payloads WebSocket frames; a channels door would key by channel name.
///
/// Rules:
/// 1. Listeners subscribe and unsubscribe on their own loop; each loop keeps its listeners in its own
///    ``RealtimeLoopIndex``, which the hub makes the first time a listener there needs it.
/// 2. ``publish(_:to:)`` may be called from any thread. It posts the event once to each loop with listeners
///    for its key (and to no other), and the loop fans it out without a lock, a few hundred listeners per
///    step; an event that arrives during a fan-out of its key joins it (``RealtimeRun``).
/// 3. Per loop, events of one publisher arrive in the order it published them (`EventLoop.execute` is FIFO),
///    and every listener gets them in that order.
/// 4. A listener receives what is published after its subscription returned, until its unsubscription.
/// 5. The hub decides nothing about who may see what: the door publishes to a key only what every listener of
///    the key may receive.
package final class RealtimeHub<Key: Hashable & Sendable, Listener: RealtimeListener>: Sendable {
    /// The listener index of one loop.
    package typealias Index = RealtimeLoopIndex<Key, Listener>

    private struct State {
        /// Each loop's index, by loop.
        var indexes: [ObjectIdentifier: LoopBound<Index>] = [:]
        /// For each key, the indexes of the loops that have at least one listener for it.
        var loops: [Key: [LoopBound<Index>]] = [:]
    }

    private let state = LockedValue(State())
    /// Listener calls per step of a loop's fan-out (``RealtimeLoopIndex/stepSize``).
    private let stepSize: Int

    /// An empty hub.
    ///
    /// - Parameter stepSize: listener calls per step of a loop's fan-out.
    package init(stepSize: Int = 256) {
        self.stepSize = stepSize
    }

    /// The listener index of `loop`, made on first use; call on that loop.
    private func index(on loop: EventLoop) -> LoopBound<Index> {
        state.withLock { state in
            if let index = state.indexes[ObjectIdentifier(loop)] { return index }
            let index = LoopBound(Index(stepSize: stepSize), loop: loop)
            state.indexes[ObjectIdentifier(loop)] = index
            return index
        }
    }

    /// Subscribes `listener` to `key`; call on `loop`, the listener's own. Subscribing again changes nothing.
    ///
    /// - Returns: whether `key` had no listener on any loop before.
    @discardableResult
    package func subscribe(_ listener: Listener, to key: Key, on loop: EventLoop) -> Bool {
        let index = index(on: loop)
        guard index.value.add(listener, key: key) else { return false }
        return state.withLock { state in
            state.loops[key, default: []].append(index)
            return state.loops[key]?.count == 1
        }
    }

    /// Unsubscribes `listener` from `key`; call on `loop`, the listener's own.
    ///
    /// - Returns: whether `key` has no listener left on any loop.
    @discardableResult
    package func unsubscribe(_ listener: Listener, from key: Key, on loop: EventLoop) -> Bool {
        let index = index(on: loop)
        guard index.value.remove(listener, key: key) else { return false }
        return state.withLock { state in
            guard var loops = state.loops[key], let position = loops.firstIndex(where: { $0.loop === loop })
            else { return false }
            loops.remove(at: position)
            state.loops[key] = loops.isEmpty ? nil : loops
            return loops.isEmpty
        }
    }

    /// Whether any loop has a listener for `key`: a door checks before encoding an event nobody would receive.
    package func isHeard(_ key: Key) -> Bool {
        state.withLock { $0.loops[key] != nil }
    }

    /// Hands `payload` to every listener of `key`, on their loops (rules 2–4). Callable from any thread.
    ///
    /// - Returns: whether any loop had listeners for `key`.
    @discardableResult
    package func publish(_ payload: Listener.Payload, to key: Key) -> Bool {
        guard let loops = state.withLock({ $0.loops[key] }) else { return false }
        let event = RealtimeQueuedEvent(key: key, payload: payload)
        for index in loops {
            index.loop.execute {
                if index.value.enqueue(event) { Index.drive(index) }
            }
        }
        return true
    }
}
