/// The socket.io event names of Bmob realtime data.
package enum BmobRealtimeEventName: String, Sendable, Hashable, CaseIterable {
    /// Server → client after connecting: ready for subscriptions. JavaScript `JSON.parse`s its `args[0]`.
    case clientSendData = "client_send_data"
    /// Client → server: subscribe (or, with an `unsub_*` action, unsubscribe).
    case clientSubscribe = "client_sub"
    /// Client → server: unsubscribe.
    case clientUnsubscribe = "client_unsub"
    /// Server → client: a change, with `args[0]` the JSON text of a ``BmobRealtimePublication``.
    case serverPublish = "server_pub"

    /// The ready event the server sends after `1::`: `5:::{"name":"client_send_data","args":["{}"]}`.
    package static let readyPacket = SocketIOPacket.event(clientSendData.rawValue, [.string("{}")])
}
