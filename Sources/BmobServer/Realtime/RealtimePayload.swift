/// What a ``RealtimeHub`` carries to its listeners: an event as its door encoded it (a socket.io door's
/// WebSocket frame, say), made once and shared by every listener of the event.
///
/// When events of one key queue up for a loop faster than they go out, a listener gets all those it lacks in
/// one call (``RealtimeRun``), so a payload type says how several become one.
package protocol RealtimePayload: Sendable {
    /// One payload that stands for `payloads`, in order (several encoded frames written as one buffer, say).
    ///
    /// - Parameter payloads: two or more payloads, oldest first.
    /// - Returns: what a listener receives instead of each of them in turn.
    static func joined(_ payloads: ArraySlice<Self>) -> Self
}
