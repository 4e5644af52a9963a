/// The nine socket.io 0.9 packet types, numbered as they appear first in `type:id:endpoint:data`.
package enum SocketIOPacketType: UInt8, Sendable, Hashable, CaseIterable {
    /// `0`: close the endpoint (or, without an endpoint, the whole connection).
    case disconnect = 0
    /// `1`: the endpoint is connected; the server sends `1::` first after the WebSocket opens.
    case connect = 1
    /// `2`: keep-alive; the receiver answers with a heartbeat.
    case heartbeat = 2
    /// `3`: a plain text message.
    case message = 3
    /// `4`: a JSON message.
    case json = 4
    /// `5`: a named event with JSON arguments, `{"name":…,"args":[…]}`.
    case event = 5
    /// `6`: the acknowledgement of a packet sent with an id.
    case ack = 6
    /// `7`: an error, `reason[+advice]`.
    case error = 7
    /// `8`: nothing; used to close a polling cycle.
    case noop = 8
}
