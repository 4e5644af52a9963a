/// The listeners of one event loop, by app and key. Loop-confined: the feed hands each event to every loop
/// that has listeners for its key, once, and the loop fans it out here without any lock.
package final class RealtimeLoopIndex {
    private var listeners: [String: [RealtimeSubscriptionKey: [ObjectIdentifier: any RealtimeListener]]] = [:]

    package init() {}

    /// Registers a listener.
    ///
    /// - Returns: whether it is the loop's first listener for the key (the feed must then be told).
    package func add(_ listener: any RealtimeListener, appId: String, key: RealtimeSubscriptionKey) -> Bool {
        // Nested in-place updates: copying a dictionary out and back would copy every listener each time.
        let isFirst = listeners[appId]?[key]?.isEmpty ?? true
        listeners[appId, default: [:]][key, default: [:]][ObjectIdentifier(listener)] = listener
        return isFirst
    }

    /// Removes a listener.
    ///
    /// - Returns: whether the loop has no listener left for the key (the feed must then be told).
    package func remove(_ listener: any RealtimeListener, appId: String, key: RealtimeSubscriptionKey) -> Bool {
        guard listeners[appId]?[key]?.removeValue(forKey: ObjectIdentifier(listener)) != nil else { return false }
        guard listeners[appId]?[key]?.isEmpty ?? true else { return false }
        listeners[appId]?[key] = nil
        if listeners[appId]?.isEmpty ?? false { listeners[appId] = nil }
        return true
    }

    /// Hands an event to every listener of the key on this loop.
    package func deliver(appId: String, key: RealtimeSubscriptionKey, encodedFrame: [UInt8]) {
        guard let group = listeners[appId]?[key] else { return }
        for listener in group.values {
            listener.realtimeEvent(encodedFrame: encodedFrame)
        }
    }

    /// How many listeners the loop holds for the key.
    package func count(appId: String, key: RealtimeSubscriptionKey) -> Int {
        listeners[appId]?[key]?.count ?? 0
    }
}
