extension PostgresChannelCluster {
    /// What the server does with what the cluster reports, and how it encodes the messages the cluster writes
    /// itself. Called on the cluster's threads.
    package struct Handlers: Sendable {
        /// Messages other nodes wrote, in `seq` order (this node's own are skipped: it delivered them already).
        package var deliver: @Sendable ([ChannelClusterMessage]) -> Void
        /// What this node changed by removing a dead node's connections, or its own as it stops: members who left
        /// (their `member_removed` is in the log already, for the other nodes) and channels vacated.
        package var reaped: @Sendable ([ChannelClusterLeave]) -> Void
        /// Other nodes declared this one dead (its heartbeat lapsed) and removed its connections: the server
        /// records its live ones again.
        package var revived: @Sendable () -> Void
        /// The log message of a member's arrival.
        package var memberAdded: @Sendable (_ applicationId: String, _ channel: String, ChannelClusterMember) -> String
        /// The log message of a member's departure.
        package var memberRemoved: @Sendable (ChannelClusterLeave) -> String
        /// The log message of a channel's new connection count.
        package var subscriptionCount: @Sendable (_ applicationId: String, _ channel: String, _ count: Int) -> String

        package init(
            deliver: @escaping @Sendable ([ChannelClusterMessage]) -> Void,
            reaped: @escaping @Sendable ([ChannelClusterLeave]) -> Void,
            revived: @escaping @Sendable () -> Void,
            memberAdded: @escaping @Sendable (String, String, ChannelClusterMember) -> String,
            memberRemoved: @escaping @Sendable (ChannelClusterLeave) -> String,
            subscriptionCount: @escaping @Sendable (String, String, Int) -> String = { _, _, _ in "" }
        ) {
            self.deliver = deliver
            self.reaped = reaped
            self.revived = revived
            self.memberAdded = memberAdded
            self.memberRemoved = memberRemoved
            self.subscriptionCount = subscriptionCount
        }
    }
}
