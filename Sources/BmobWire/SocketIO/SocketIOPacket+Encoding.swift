extension SocketIOPacket {
    /// The packet's text form, which ``init(decoding:)-(String)`` turns back into an equal packet.
    ///
    /// The data field is written only when the type has one: `0::`, `1::` (or `1::endpoint:query`) and `8::`
    /// have none. A heartbeat is written `2:::`, with an empty data field, because the WeChat JavaScript
    /// client only answers heartbeats that start with `2:::`; every socket.io 0.9 peer reads it as `2::`.
    /// Events are written `{"name":…,"args":[…]}`, always with `args`; acks `id` or `id+[…]` when they have
    /// arguments. JSON is compact, object keys sorted.
    package var encoded: String {
        var text = String(type.rawValue)
        text += ":"
        if let id {
            text += String(id.value)
            if id.ackWithData { text += "+" }
        }
        text += ":"
        text += endpoint
        switch payload {
        case .disconnect, .noop:
            break
        case .connect(let query):
            if !query.isEmpty { text += ":" + query }
        case .heartbeat:
            text += ":"
        case .message(let data):
            text += ":" + data
        case .json(let value):
            text += ":" + value.jsonString
        case .event(let name, let args):
            text += ":{\"name\":" + JSONValue.string(name).jsonString + ",\"args\":" + JSONValue.array(args).jsonString
            text += "}"
        case .ack(let acknowledged, let args):
            text += ":" + String(acknowledged)
            if !args.isEmpty { text += "+" + JSONValue.array(args).jsonString }
        case .error(let reason, let advice):
            text += ":" + reason
            if let advice { text += "+" + advice }
        }
        return text
    }
}
