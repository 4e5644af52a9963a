/// One connection on one channel of one app, on this node: a row of the cluster's channel state.
package struct ChannelClusterSubscription: Sendable, Hashable {
    /// The app's Application ID.
    package var applicationId: String
    /// The channel.
    package var channel: String
    /// The connection's socket id (unique per node; rows are keyed by node too).
    package var socket: String
    /// On a presence channel, the member it joined as.
    package var member: ChannelClusterMember?
    /// Whether the join or leave counts the channel's connections afterwards and logs the count for the other nodes
    /// (apps with subscription counts; never presence channels).
    package var countsSubscriptions = false

    package init(applicationId: String, channel: String, socket: String, member: ChannelClusterMember?) {
        self.applicationId = applicationId
        self.channel = channel
        self.socket = socket
        self.member = member
    }
}
