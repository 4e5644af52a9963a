extension PostgresChannelCluster {
    /// How a node takes part in the cluster's channels.
    package struct Configuration: Sendable {
        /// The database: a `postgres://` URL or a libpq connection string.
        package var url: String
        /// Where the log reader connects (`LISTEN` needs a session); `nil` uses ``url``.
        package var listenURL: String?
        /// This node's name in the tables: unique per process.
        package var node: String
        /// How old a node's heartbeat may grow before any other node declares it dead, removes its connections
        /// and announces the members who left with them, in seconds. Nodes beat every third of it.
        package var nodeTimeoutSeconds: Double
        /// How often the log reader looks for messages when no notification woke it, in milliseconds.
        package var pollMilliseconds: Int
        /// How long messages stay in the log, in seconds: a node whose reader falls further behind misses them.
        package var logRetentionSeconds: Double
        /// The largest message body a node reads; a longer one is skipped.
        package var maximumMessageBytes: Int
        /// Most members (distinct users) of one presence channel across the cluster.
        package var maximumMembers: Int

        package init(
            url: String, listenURL: String? = nil, node: String, nodeTimeoutSeconds: Double = 30,
            pollMilliseconds: Int = 500, logRetentionSeconds: Double = 60, maximumMessageBytes: Int = 64 * 1024,
            maximumMembers: Int = 100
        ) {
            self.url = url
            self.listenURL = listenURL
            self.node = node
            self.nodeTimeoutSeconds = nodeTimeoutSeconds
            self.pollMilliseconds = pollMilliseconds
            self.logRetentionSeconds = logRetentionSeconds
            self.maximumMessageBytes = maximumMessageBytes
            self.maximumMembers = maximumMembers
        }
    }
}
