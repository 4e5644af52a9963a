import BmobIO
import BmobWire
import Synchronization

/// This node's channel state for every app: how many connections each channel has (the HTTP API's channel
/// info), each presence channel's members, and each signed-in user's connections (for terminate and
/// server-to-user events). One mutex; every call is short.
final class PusherChannelTable: Sendable {
    /// A channel of an app, whatever the connections' prefix.
    struct ChannelID: Hashable, Sendable {
        var applicationId: String
        var channel: String
    }

    /// A signed-in user of an app.
    struct UserID: Hashable, Sendable {
        var applicationId: String
        var userId: String
    }

    private struct State {
        var subscriptions: [ChannelID: Int] = [:]
        var presence: [ChannelID: PusherPresenceMembers] = [:]
        var users: [UserID: [ObjectIdentifier: LoopBound<PusherSession>]] = [:]
    }

    private let state = Mutex(State())
    private let presenceLimits: PusherPresenceMembers.Limits

    init(presenceLimits: PusherPresenceMembers.Limits = .init()) {
        self.presenceLimits = presenceLimits
    }

    // MARK: Subscriptions

    /// One connection more on `channel`; returns whether it was vacant (now occupied).
    @discardableResult
    func subscribed(_ channel: ChannelID) -> Bool {
        state.withLock { state in
            state.subscriptions[channel, default: 0] += 1
            return state.subscriptions[channel] == 1
        }
    }

    /// One connection less on `channel`; returns whether that was its last (now vacant).
    @discardableResult
    func unsubscribed(_ channel: ChannelID) -> Bool {
        state.withLock { state in
            guard let count = state.subscriptions[channel] else { return false }
            state.subscriptions[channel] = count > 1 ? count - 1 : nil
            return count == 1
        }
    }

    /// The connections on `channel` (0: vacant).
    func subscriptionCount(_ channel: ChannelID) -> Int {
        state.withLock { $0.subscriptions[channel] ?? 0 }
    }

    /// The occupied channels of an app, with the user count of presence ones.
    func occupiedChannels(of applicationId: String) -> [(name: String, userCount: Int?)] {
        state.withLock { state in
            state.subscriptions.keys.filter { $0.applicationId == applicationId }.map { id in
                (id.channel, state.presence[id]?.count)
            }
        }
    }

    // MARK: Presence

    /// Adds a connection to a presence channel as `userId`.
    ///
    /// - Returns: the members now (the joiner included), and whether the user is new to the channel.
    func join(
        _ channel: ChannelID, socket: PusherSocketId, userId: String, userInfo: JSONValue?
    ) throws(PusherProtocolError) -> (members: PusherPresenceMembers, isNew: Bool) {
        try state.withLock { (state: inout State) throws(PusherProtocolError) -> (PusherPresenceMembers, Bool) in
            var members = state.presence[channel] ?? PusherPresenceMembers(limits: presenceLimits)
            let isNew = try members.add(socket: socket, userId: userId, userInfo: userInfo)
            state.presence[channel] = members
            return (members, isNew)
        }
    }

    /// Removes a connection from a presence channel.
    ///
    /// - Returns: the user id whose last connection left, if one did.
    func leave(_ channel: ChannelID, socket: PusherSocketId) -> String? {
        state.withLock { state in
            guard var members = state.presence[channel] else { return nil }
            let gone = members.remove(socket: socket)
            state.presence[channel] = members.isEmpty ? nil : members
            return gone
        }
    }

    /// A presence channel's members, if it has any.
    func members(_ channel: ChannelID) -> PusherPresenceMembers? {
        state.withLock { $0.presence[channel] }
    }

    // MARK: Signed-in users

    /// Records a signed-in connection.
    func signedIn(_ user: UserID, _ session: LoopBound<PusherSession>) {
        state.withLock { $0.users[user, default: [:]][ObjectIdentifier(session.value)] = session }
    }

    /// Forgets a signed-in connection.
    func signedOut(_ user: UserID, _ session: PusherSession) {
        state.withLock { state in
            state.users[user]?[ObjectIdentifier(session)] = nil
            if state.users[user]?.isEmpty == true { state.users[user] = nil }
        }
    }

    /// The connections signed in as `user`.
    func connections(of user: UserID) -> [LoopBound<PusherSession>] {
        state.withLock { Array(($0.users[user] ?? [:]).values) }
    }
}
