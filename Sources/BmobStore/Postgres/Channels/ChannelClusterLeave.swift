/// What a connection's leaving a channel changed across the cluster: by its own unsubscribe or close
/// (``PostgresChannelCluster/leave(_:completion:)``), or because its node stopped or died.
package struct ChannelClusterLeave: Sendable, Hashable {
    /// The app's Application ID.
    package var applicationId: String
    /// The channel.
    package var channel: String
    /// Whether that was the channel's last connection on any node (now vacant: `channel_vacated`).
    package var vacated: Bool
    /// On a presence channel, the user whose last connection anywhere left (`member_removed`).
    package var goneUserId: String?
    /// The channel's connections on every node after the leave, when the subscription asked for them and the
    /// channel is still occupied.
    package var subscriptionCount: Int?
    /// Whether this node's own sockets hear the `member_removed` through the log (a dead node's departures), so the
    /// node that made the change must not announce it to them itself.
    package var deliveredThroughLog = false

    package init(applicationId: String, channel: String, vacated: Bool, goneUserId: String?) {
        self.applicationId = applicationId
        self.channel = channel
        self.vacated = vacated
        self.goneUserId = goneUserId
    }
}
