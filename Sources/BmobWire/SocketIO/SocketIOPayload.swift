/// What a socket.io 0.9 packet carries after its id and endpoint, one case per ``SocketIOPacketType``.
package enum SocketIOPayload: Sendable, Hashable {
    /// `0::endpoint`: close the endpoint.
    case disconnect
    /// `1::endpoint[:query]`: connect, with the query string a client may add for an endpoint (`?token=…`),
    /// empty when there is none.
    case connect(query: String)
    /// `2::` or `2:::`: keep-alive.
    case heartbeat
    /// `3:id:endpoint:text`: a plain text message; empty when the data field is missing.
    case message(String)
    /// `4:id:endpoint:json`: a JSON message.
    case json(JSONValue)
    /// `5:id:endpoint:{"name":…,"args":[…]}`: a named event; `args` is empty when the JSON has none.
    case event(name: String, args: [JSONValue])
    /// `6::endpoint:id[+args]`: acknowledges packet `id`, with the handler's arguments when there are any.
    case ack(id: UInt64, args: [JSONValue])
    /// `7::endpoint:reason[+advice]`: an error.
    ///
    /// Both are passed as their wire tokens. The socket.io 0.9 reference implementation sends indexes into its
    /// tables: reasons `0` transport not supported, `1` client not handshaken, `2` unauthorized; advice `0`
    /// reconnect. A reason cannot contain `+`.
    case error(reason: String, advice: String?)
    /// `8::`: nothing.
    case noop

    /// The packet type this payload travels as.
    package var type: SocketIOPacketType {
        switch self {
        case .disconnect: .disconnect
        case .connect: .connect
        case .heartbeat: .heartbeat
        case .message: .message
        case .json: .json
        case .event: .event
        case .ack: .ack
        case .error: .error
        case .noop: .noop
        }
    }
}
