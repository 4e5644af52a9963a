/// One event on its way to the listeners of one loop (``RealtimeLoopIndex/enqueue(_:)``).
package struct RealtimeQueuedEvent: Sendable {
    package var appId: String
    package var key: RealtimeSubscriptionKey
    /// The event as an encoded WebSocket text frame, shared by every listener.
    package var encodedFrame: [UInt8]

    package init(appId: String, key: RealtimeSubscriptionKey, encodedFrame: [UInt8]) {
        self.appId = appId
        self.key = key
        self.encodedFrame = encodedFrame
    }
}
