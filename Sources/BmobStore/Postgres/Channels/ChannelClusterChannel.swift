/// An occupied channel of an app across the cluster (``PostgresChannelCluster/occupiedChannels(of:)``).
package struct ChannelClusterChannel: Sendable, Hashable {
    /// The channel's name.
    package var name: String
    /// Its connections on every node.
    package var subscriptionCount: Int
    /// Its distinct presence users on every node (0 for other channels).
    package var userCount: Int

    package init(name: String, subscriptionCount: Int, userCount: Int) {
        self.name = name
        self.subscriptionCount = subscriptionCount
        self.userCount = userCount
    }
}
