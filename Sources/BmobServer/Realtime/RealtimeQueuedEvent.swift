/// One event on its way to the listeners of one loop (``RealtimeLoopIndex/enqueue(_:)``).
package struct RealtimeQueuedEvent<Key: Hashable & Sendable, Payload: RealtimePayload>: Sendable {
    /// Whose listeners get it.
    package var key: Key
    /// The event as its door encoded it, shared by every listener.
    package var payload: Payload

    /// An event for the listeners of `key`.
    package init(key: Key, payload: Payload) {
        self.key = key
        self.payload = payload
    }
}
