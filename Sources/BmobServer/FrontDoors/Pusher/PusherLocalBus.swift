import BmobIO
import BmobServerCodecs
import BmobWire

/// The channels bus of one node (SQLite): the state is this node's ``PusherChannelTable``, every call completes
/// at once on the caller's thread, and there are no other nodes to carry anything to.
struct PusherLocalBus: PusherChannelBus {
    let table: PusherChannelTable

    func join(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, member: PusherChannelData?,
        countsSubscriptions: Bool, on loop: EventLoop, completion: @escaping @Sendable (Result<PusherJoinOutcome, PusherProtocolError>) -> Void
    ) {
        do {
            var members: PusherPresenceMembers?
            var newMember = false
            if let member {
                (members, newMember) = try table.join(
                    channel, socket: socket, userId: member.userId, userInfo: member.userInfo)
            }
            var outcome = PusherJoinOutcome(occupied: table.subscribed(channel), newMember: newMember, members: members)
            if countsSubscriptions { outcome.subscriptionCount = table.subscriptionCount(channel) }
            completion(.success(outcome))
        } catch {
            completion(.failure(error))
        }
    }

    func leave(
        _ channel: PusherChannelTable.ChannelID, socket: PusherSocketId, presence: Bool, countsSubscriptions: Bool,
        completion: @escaping @Sendable (PusherLeaveOutcome) -> Void
    ) {
        let gone = presence ? table.leave(channel, socket: socket) : nil
        let vacated = table.unsubscribed(channel)
        var outcome = PusherLeaveOutcome(
            applicationId: channel.applicationId, channel: channel.channel, vacated: vacated, goneUserId: gone)
        if countsSubscriptions { outcome.subscriptionCount = table.subscriptionCount(channel) }
        completion(outcome)
    }

    func broadcast(_ applicationId: String, _ messages: [PusherClusterMessage]) async throws {}

    func post(_ applicationId: String, _ messages: [PusherClusterMessage]) {}

    func counts(_ channel: PusherChannelTable.ChannelID) async throws -> (subscriptions: Int, users: Int) {
        (table.subscriptionCount(channel), table.members(channel)?.count ?? 0)
    }

    func memberIds(_ channel: PusherChannelTable.ChannelID) async throws -> [String] {
        table.members(channel)?.ids ?? []
    }

    func occupiedChannels(of applicationId: String) async throws -> [(name: String, userCount: Int?)] {
        table.occupiedChannels(of: applicationId)
    }

    func start(_ gateway: PusherGateway) async throws {}

    func stop() async {}
}
