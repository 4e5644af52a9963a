/// Something on an event loop that receives a ``RealtimeHub``'s events: a socket.io session today; channel
/// members and live queries later. Loop-confined: it is called only on the loop it subscribed from.
///
/// Values stay on their loop, but the type crosses threads (the hub names it in the work it posts to a
/// loop), hence `SendableMetatype`.
package protocol RealtimeListener: AnyObject, SendableMetatype {
    /// What the listener receives, as its door encodes it.
    associatedtype Payload: RealtimePayload

    /// Events for a key the listener subscribed to: one event's payload, shared by every listener of the
    /// event, or several events it lacked joined into one (``RealtimePayload/joined(_:)``), in order.
    func realtimeEvent(_ payload: Payload)
}
