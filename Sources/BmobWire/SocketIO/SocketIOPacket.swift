/// One socket.io 0.9 (protocol revision 1) packet, as text `type:id:endpoint:data`.
///
/// The type is one digit (``SocketIOPacketType``); the id is optional digits, with a `+` when the ack should
/// carry data (``SocketIOPacketID``); the endpoint is optional text without `:`; the data field and its
/// leading `:` are optional, and their meaning depends on the type (``SocketIOPayload``).
///
/// Decoding (``init(decoding:)-(String)``) is strict about structure but accepts the forms real clients send:
/// `2::` and `2:::` are both heartbeats, `1::` a connect, `0::` a disconnect, and Flutter's `5:1+::{…}`
/// an event asking for an ack with data. Encoding (``encoded``) writes one canonical form that decodes to the
/// same packet.
///
/// ## Topics
/// ### Making packets
/// - ``init(_:id:endpoint:)``
/// - ``heartbeat``
/// - ``connect``
/// - ``disconnect``
/// - ``noop``
/// - ``event(_:_:id:endpoint:)``
/// ### Text form
/// - ``init(decoding:)-(String)``
/// - ``init(decoding:)-(Substring)``
/// - ``encoded``
package struct SocketIOPacket: Sendable, Hashable {
    /// What the packet carries, which also fixes its type.
    package let payload: SocketIOPayload
    /// The packet's id when it asks for an acknowledgement.
    package let id: SocketIOPacketID?
    /// The endpoint (namespace), such as `/chat`; empty for the default one, which Bmob uses.
    package let endpoint: String

    /// Creates a packet.
    ///
    /// An endpoint containing `:`, an error reason containing `+`, or an ack of an id above
    /// ``SocketIOPacketID/maximum`` has no text form, and is a programmer error.
    ///
    /// - Parameters:
    ///   - payload: What the packet carries.
    ///   - id: The id, when the packet asks for an acknowledgement.
    ///   - endpoint: The endpoint; empty by default.
    package init(_ payload: SocketIOPayload, id: SocketIOPacketID? = nil, endpoint: String = "") {
        precondition(!endpoint.utf8.contains(UInt8(ascii: ":")), "a socket.io endpoint cannot contain ':'")
        switch payload {
        case .error(let reason, _):
            precondition(!reason.utf8.contains(UInt8(ascii: "+")), "a socket.io error reason cannot contain '+'")
        case .ack(let acknowledged, _):
            precondition(acknowledged <= SocketIOPacketID.maximum, "socket.io ack id above 2^53 - 1")
        default:
            break
        }
        self.payload = payload
        self.id = id
        self.endpoint = endpoint
    }

    /// The packet's type, from its payload.
    package var type: SocketIOPacketType { payload.type }

    /// The heartbeat on the default endpoint; it encodes as `2:::`.
    package static let heartbeat = SocketIOPacket(.heartbeat)
    /// The connect packet on the default endpoint, `1::`, which the server sends first.
    package static let connect = SocketIOPacket(.connect(query: ""))
    /// The disconnect packet on the default endpoint, `0::`.
    package static let disconnect = SocketIOPacket(.disconnect)
    /// The noop packet on the default endpoint, `8::`.
    package static let noop = SocketIOPacket(.noop)

    /// An event packet, `5:id:endpoint:{"name":…,"args":[…]}`.
    ///
    /// - Parameters:
    ///   - name: The event name, such as `client_sub` or `server_pub`.
    ///   - args: The event's arguments.
    ///   - id: The id, when the event asks for an acknowledgement.
    ///   - endpoint: The endpoint; empty by default.
    /// - Returns: The packet.
    package static func event(
        _ name: String, _ args: [JSONValue], id: SocketIOPacketID? = nil, endpoint: String = ""
    ) -> SocketIOPacket {
        SocketIOPacket(.event(name: name, args: args), id: id, endpoint: endpoint)
    }
}
