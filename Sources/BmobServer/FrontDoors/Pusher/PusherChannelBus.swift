import BmobIO
import BmobServerCodecs
import BmobWire

/// Where the channels door keeps who is on which channel and how its events reach other server nodes: the seam
/// between one node and several.
///
/// - ``PusherLocalBus`` (SQLite, one node): this node's ``PusherChannelTable``; every call completes at once, on
///   the caller's thread, and nothing leaves the process.
/// - ``PusherStoreBus`` (PostgreSQL, several nodes): the store's channel state and log
///   (`PostgresChannelCluster`): counts, members and occupancy are the cluster's; messages reach other nodes
///   through the log, which each node tails.
///
/// Either way the caller delivers to this node's sockets itself, at once: a bus carries events only to *other*
/// nodes, so that a node's own subscribers never wait for the store.
protocol PusherChannelBus: Sendable {
    /// Records that `socket` joined `channel` (as `member` on a presence channel) and calls `completion` with what
    /// that changed: at once on the local bus, on `loop` once the store answered on the cluster's. With
    /// `countsSubscriptions` the outcome has the channel's connection count, which the cluster's bus also carries to
    /// the other nodes, in the order of the changes.
    func join(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, member: PusherChannelData?,
        countsSubscriptions: Bool, on loop: EventLoop,
        completion: @escaping @Sendable (Result<PusherJoinOutcome, PusherProtocolError>) -> Void)

    /// Records that `socket` left `channel` (`presence`: a presence channel it had joined as a member) and calls
    /// `completion` with what that changed, on any thread; `countsSubscriptions` as for ``join``.
    func leave(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, presence: Bool, countsSubscriptions: Bool,
        completion: @escaping @Sendable (PusherLeaveOutcome) -> Void)

    /// Carries messages of an app to the other nodes' sockets and returns once they are on their way.
    ///
    /// - Throws: when the other nodes cannot be reached.
    func broadcast(_ applicationId: String, _ messages: [PusherClusterMessage]) async throws

    /// Carries messages of an app to the other nodes' sockets without waiting.
    func post(_ applicationId: String, _ messages: [PusherClusterMessage])

    /// A channel's connections, and its distinct presence users.
    func counts(_ channel: PusherChannelTable.ChannelID) async throws -> (subscriptions: Int, users: Int)

    /// A presence channel's user ids, sorted.
    func memberIds(_ channel: PusherChannelTable.ChannelID) async throws -> [String]

    /// An app's occupied channels, with the user count of presence ones.
    func occupiedChannels(of applicationId: String) async throws -> [(name: String, userCount: Int?)]

    /// Starts taking part (the cluster's reader and heartbeat); `gateway` hears what other nodes send.
    func start(_ gateway: PusherGateway) async throws

    /// Stops taking part: this node's connections leave the cluster's counts.
    func stop() async
}
