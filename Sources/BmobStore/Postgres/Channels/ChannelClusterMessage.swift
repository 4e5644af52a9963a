/// One message of the channel log, as a node reads it: an app's event for the sockets of every node (a publish,
/// a client event, a member added or removed, a terminate), encoded by the server (``body`` is opaque here).
package struct ChannelClusterMessage: Sendable, Hashable {
    /// Its place in the log: grows in commit order.
    package var seq: Int64
    /// The node that wrote it.
    package var node: String
    /// The app it belongs to.
    package var applicationId: String
    /// The server's encoding of the event.
    package var body: String

    package init(seq: Int64, node: String, applicationId: String, body: String) {
        self.seq = seq
        self.node = node
        self.applicationId = applicationId
        self.body = body
    }
}
