/// Something on an event loop that receives realtime events: a socket.io session today; live queries and
/// channels later. Loop-confined: it is called only on the loop it registered from.
package protocol RealtimeListener: AnyObject {
    /// Events for a key the listener registered, as encoded WebSocket text frames shared by every listener
    /// of the event (encoded once per event, not once per listener): one frame, or several in a row when
    /// events queued up for the loop (to be written as they are).
    func realtimeEvent(encodedFrame: [UInt8])
}
