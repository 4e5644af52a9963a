/// What a connection's joining a channel changed across the cluster (``PostgresChannelCluster/join(_:completion:)``).
package struct ChannelClusterJoin: Sendable {
    /// Whether the channel had no connection on any node before (now occupied: `channel_occupied`).
    package var occupied: Bool
    /// On a presence channel, whether the user had no connection on it anywhere before (`member_added`).
    package var newMember: Bool
    /// On a presence channel, its members across the cluster, the joiner included.
    package var members: [ChannelClusterMember]
    /// Whether the presence channel already has its most members and the user is not one: nothing was recorded.
    package var full: Bool
    /// The log's last `seq` as of the join: ``members`` is the state after every message up to it.
    package var logPosition: Int64 = 0
    /// The channel's connections on every node after the join, when the subscription asked for them.
    package var subscriptionCount: Int?

    package init(occupied: Bool, newMember: Bool, members: [ChannelClusterMember], full: Bool) {
        self.occupied = occupied
        self.newMember = newMember
        self.members = members
        self.full = full
    }
}
