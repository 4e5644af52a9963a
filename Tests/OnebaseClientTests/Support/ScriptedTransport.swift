import BmobTesting
import BmobWire

/// The in-memory transport the tests' sync server hands the client: BmobTesting's scripted transport, with the sync
/// protocol's messages.
typealias ScriptedTransport = ScriptedWebSocketTransport

extension ScriptedWebSocketTransport {
    /// The messages the client sent, decoded.
    var sent: [JSONValue] { sentTexts.compactMap { try? JSONParser.parse($0) } }

    /// The server sends `message`.
    func serverSends(_ message: SyncServerMessage) { serverSends(message.encoded) }

    /// The connection drops (1006).
    func drop() { serverCloses(1006) }
}
