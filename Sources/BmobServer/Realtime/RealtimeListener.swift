/// Something on an event loop that receives realtime events: a socket.io session today; live queries and
/// channels later. Loop-confined: it is called only on the loop it registered from.
package protocol RealtimeListener: AnyObject {
    /// One event for a key the listener registered, as an encoded WebSocket text frame shared by every
    /// listener of the event (encoded once per event, not once per listener).
    func realtimeEvent(encodedFrame: [UInt8])
}
