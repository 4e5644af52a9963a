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

    package init() {}

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

    /// Hands an event to every listener of the key on this loop.
    package func deliver(appId: String, key: RealtimeSubscriptionKey, encodedFrame: [UInt8]) {
        guard let group = groups[appId]?[key] else { return }
        // A listener may unsubscribe while it handles the event (its connection failing, say); walk a copy.
        let listeners = group.listeners
        for listener in listeners {
            listener.realtimeEvent(encodedFrame: encodedFrame)
        }
    }

    /// How many listeners the loop holds for the key.
    package func count(appId: String, key: RealtimeSubscriptionKey) -> Int {
        groups[appId]?[key]?.listeners.count ?? 0
    }
}
