import BmobTesting

/// The in-memory transport the tests' edge (``FakeEdge``) hands the client: BmobTesting's scripted transport, with the
/// Pusher protocol's messages.
typealias ScriptedTransport = ScriptedWebSocketTransport

extension ScriptedWebSocketTransport {
    /// The text frames the client sent.
    var sent: [String] { sentTexts }

    /// The edge accepts the connection as `id`.
    func establish(_ id: String = "1.1") {
        serverSends(
            #"{"event":"bird:connection_established","data":"{\"socket_id\":\"\#(id)\",\"activity_timeout\":120}"}"#)
    }
}
