import BmobIO
import BmobStore
import BmobServerCodecs
import BmobWire

/// The channels bus of a cluster on PostgreSQL: the store's channel state and log (``PostgresChannelCluster``).
/// Joins and leaves are recorded in the cluster's table, so counts, presence members (a user counts once
/// whichever nodes its connections are on) and occupancy are the cluster's, and whichever node makes a change
/// announces it (webhooks once). Publishes, client events, members' arrivals and departures and terminates go
/// through the log, which every node tails and delivers to its own sockets.
final class PusherStoreBus: PusherChannelBus {
    private let cluster: PostgresChannelCluster
    private let logger: Logger
    private let presenceLimits: PusherPresenceMembers.Limits
    /// This node's recorded connections, by (app, channel, socket), to record again when other nodes declared this
    /// one dead meanwhile.
    private let recorded = LockedValue<[[String]: ChannelClusterSubscription]>([:])

    init(cluster: PostgresChannelCluster, logger: Logger, presenceLimits: PusherPresenceMembers.Limits = .init()) {
        self.cluster = cluster
        self.logger = logger
        self.presenceLimits = presenceLimits
    }

    func join(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, member: PusherChannelData?,
        countsSubscriptions: Bool, on loop: EventLoop, completion: @escaping @Sendable (Result<PusherJoinOutcome, PusherProtocolError>) -> Void
    ) {
        // The joiner's own limits (user id and info sizes) are checked here, the channel's size by the store.
        if let member {
            var alone = PusherPresenceMembers(limits: presenceLimits)
            do {
                try alone.add(socket: socket, userId: member.userId, userInfo: member.userInfo)
            } catch {
                return completion(.failure(error))
            }
        }
        var subscription = Self.subscription(channel, socket, member)
        subscription.countsSubscriptions = countsSubscriptions
        recorded.withLock { $0[Self.key(subscription)] = subscription }
        cluster.join(subscription) { [presenceLimits, logger] result in
            let outcome: Result<PusherJoinOutcome, PusherProtocolError>
            switch result {
            case .success(let joined) where joined.full:
                outcome = .failure(
                    PusherProtocolError(
                        .presenceLimitReached,
                        "presence channel has its maximum of \(presenceLimits.maximumMembers) members"))
            case .success(let joined):
                outcome = .success(
                    PusherJoinOutcome(
                        occupied: joined.occupied, newMember: joined.newMember,
                        members: member == nil ? nil : Self.members(joined.members),
                        subscriptionCount: joined.subscriptionCount))
            case .failure(let error):
                logger.error("channels: recording a subscription failed: \(error)")
                outcome = .failure(
                    PusherProtocolError(.unsupportedChannel, "the channel could not be joined now; try again"))
            }
            loop.execute { completion(outcome) }
        }
    }

    func leave(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, presence: Bool, countsSubscriptions: Bool,
        completion: @escaping @Sendable (PusherLeaveOutcome) -> Void
    ) {
        var subscription = Self.subscription(channel, socket, nil)
        subscription.countsSubscriptions = countsSubscriptions
        recorded.withLock { $0[Self.key(subscription)] = nil }
        cluster.leave(subscription) { [logger] result in
            switch result {
            case .success(let left):
                completion(
                    PusherLeaveOutcome(
                        applicationId: left.applicationId, channel: left.channel, vacated: left.vacated,
                        goneUserId: left.goneUserId, subscriptionCount: left.subscriptionCount))
            case .failure(let error):
                logger.warning(
                    "channels: recording an unsubscription failed (tried again after the next heartbeat): \(error)")
            }
        }
    }

    func broadcast(_ applicationId: String, _ messages: [PusherClusterMessage]) async throws {
        try await cluster.append(messages.map { (applicationId, $0.encoded) })
    }

    func post(_ applicationId: String, _ messages: [PusherClusterMessage]) {
        cluster.post(messages.map { (applicationId, $0.encoded) }) { [logger] error in
            logger.error("channels: a message for the other nodes was lost: \(error)")
        }
    }

    func counts(_ channel: PusherChannelTable.ChannelID) async throws -> (subscriptions: Int, users: Int) {
        let subscriptions = try await cluster.subscriptionCount(
            applicationId: channel.applicationId, channel: channel.channel)
        guard channel.channel.hasPrefix(PusherChannelName.presencePrefix) else { return (subscriptions, 0) }
        return (
            subscriptions,
            try await cluster.members(applicationId: channel.applicationId, channel: channel.channel).count
        )
    }

    func memberIds(_ channel: PusherChannelTable.ChannelID) async throws -> [String] {
        try await cluster.members(applicationId: channel.applicationId, channel: channel.channel).map(\.userId).sorted()
    }

    func occupiedChannels(of applicationId: String) async throws -> [(name: String, userCount: Int?)] {
        try await cluster.occupiedChannels(of: applicationId).map { channel in
            (channel.name, channel.name.hasPrefix(PusherChannelName.presencePrefix) ? channel.userCount : nil)
        }
    }

    func start(_ gateway: PusherGateway) async throws {
        try await cluster.start(
            PostgresChannelCluster.Handlers(
                deliver: { [weak gateway, logger] messages in
                    for message in messages {
                        guard let decoded = PusherClusterMessage(decoding: message.body) else {
                            logger.warning(
                                "channels: skipped a malformed message from node \(String(message.node.prefix(64))) (seq \(message.seq))"
                            )
                            continue
                        }
                        gateway?.deliver(decoded, applicationId: message.applicationId)
                    }
                },
                reaped: { [weak gateway] leaves in
                    for leave in leaves {
                        gateway?.announce(
                            PusherLeaveOutcome(
                                applicationId: leave.applicationId, channel: leave.channel, vacated: leave.vacated,
                                goneUserId: leave.goneUserId, deliveredThroughLog: leave.deliveredThroughLog),
                            excluding: nil)
                    }
                },
                revived: { [weak self, weak gateway] in
                    guard let self, let gateway else { return }
                    self.recordAgain(gateway)
                },
                memberAdded: { _, channel, member in
                    guard let name = try? PusherChannelName(validating: channel) else { return "" }
                    let info = member.userInfo.flatMap { try? JSONParser.parse(Array($0.utf8)) }
                    return PusherClusterMessage.memberAdded(channel: name, userId: member.userId, userInfo: info)
                        .encoded
                },
                memberRemoved: { leave in
                    guard let name = try? PusherChannelName(validating: leave.channel), let userId = leave.goneUserId
                    else { return "" }
                    return PusherClusterMessage.memberRemoved(channel: name, userId: userId).encoded
                },
                subscriptionCount: { _, channel, count in
                    guard let name = try? PusherChannelName(validating: channel) else { return "" }
                    return PusherClusterMessage.subscriptionCount(channel: name, count: count).encoded
                }))
    }

    func stop() async {
        await cluster.stop()
    }

    /// Other nodes removed this node's connections (its heartbeat lapsed, say while the database was away):
    /// records them again, announcing the members and channels that come back.
    private func recordAgain(_ gateway: PusherGateway) {
        let subscriptions = recorded.withLock { Array($0.values) }
        logger.warning(
            "channels: other nodes had declared this node dead; recording its \(subscriptions.count) subscriptions again"
        )
        for subscription in subscriptions {
            cluster.join(subscription) { [weak gateway] result in
                guard case .success(let joined) = result, !joined.full, let gateway,
                    let channel = try? PusherChannelName(validating: subscription.channel)
                else { return }
                let info = subscription.member?.userInfo.flatMap { try? JSONParser.parse(Array($0.utf8)) }
                gateway.announce(
                    PusherJoinOutcome(occupied: joined.occupied, newMember: joined.newMember, members: nil),
                    applicationId: subscription.applicationId, channel: channel,
                    member: subscription.member.map { PusherChannelData(userId: $0.userId, userInfo: info) },
                    excluding: nil)
            }
        }
    }

    private static func key(_ subscription: ChannelClusterSubscription) -> [String] {
        [subscription.applicationId, subscription.channel, subscription.socket]
    }

    private static func subscription(
        _ channel: PusherChannelTable.ChannelID, _ socket: PusherSocketId, _ member: PusherChannelData?
    ) -> ChannelClusterSubscription {
        ChannelClusterSubscription(
            applicationId: channel.applicationId, channel: channel.channel, socket: socket.description,
            member: member.map { ChannelClusterMember(userId: $0.userId, userInfo: $0.userInfo?.jsonString) })
    }

    /// The cluster's members as the protocol's member list (each user once, with the info it joined with).
    private static func members(_ members: [ChannelClusterMember]) -> PusherPresenceMembers {
        var list = PusherPresenceMembers(
            limits: .init(maximumMembers: .max, maximumUserIdLength: .max, maximumUserInfoBytes: .max))
        for (index, member) in members.enumerated() {
            let info = member.userInfo.flatMap { try? JSONParser.parse(Array($0.utf8)) }
            _ = try? list.add(socket: PusherSocketId(UInt64(index), 0), userId: member.userId, userInfo: info)
        }
        return list
    }
}
