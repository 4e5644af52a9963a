/// The members of one presence channel, keyed by user id, with the sockets each is subscribed from
/// (`pusher.md` §3.4).
///
/// Several sockets with the same user id are one member: ``add(socket:userId:userInfo:)`` says whether the user
/// is new (send `member_added` to the *other* subscribers), ``remove(socket:)`` whether its last socket left (send
/// `member_removed`). A member's `user_info` is the one its first socket brought; later sockets do not replace
/// it. Limits (``Limits``) are checked before anything changes, so a refused add leaves the value as it was.
package struct PusherPresenceMembers: Sendable, Hashable {
    /// Bounds on a channel's members.
    package struct Limits: Sendable, Hashable {
        /// The most members (distinct user ids) a channel holds; Pusher's limit is 100.
        package var maximumMembers: Int
        /// The longest user id, in characters (UTF-16 code units, as JavaScript counts).
        package var maximumUserIdLength: Int
        /// The largest `user_info`, in bytes of its compact JSON text.
        package var maximumUserInfoBytes: Int

        /// Limits, by default Pusher's: 100 members, user ids of 128 characters, 1 KiB of `user_info`.
        ///
        /// - Parameters:
        ///   - maximumMembers: the most members.
        ///   - maximumUserIdLength: the longest user id.
        ///   - maximumUserInfoBytes: the largest encoded `user_info`.
        package init(maximumMembers: Int = 100, maximumUserIdLength: Int = 128, maximumUserInfoBytes: Int = 1024) {
            self.maximumMembers = maximumMembers
            self.maximumUserIdLength = maximumUserIdLength
            self.maximumUserInfoBytes = maximumUserInfoBytes
        }
    }

    /// One member: its `user_info` and the sockets it is subscribed from.
    private struct Member: Sendable, Hashable {
        /// The `user_info` the member's first socket brought.
        var userInfo: JSONValue?
        /// The sockets subscribed as this member; never empty.
        var sockets: Set<PusherSocketId>
    }

    /// The limits adds are checked against.
    package let limits: Limits
    /// The members by user id.
    private var members: [String: Member] = [:]
    /// Each subscribed socket's user id, so that a leaving socket finds its member.
    private var userIdBySocket: [PusherSocketId: String] = [:]

    /// An empty member list.
    ///
    /// - Parameter limits: the bounds to enforce.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The number of members (distinct user ids), the presence `count`.
    package var count: Int { members.count }

    /// Whether no socket is subscribed.
    package var isEmpty: Bool { members.isEmpty }

    /// The members' user ids, sorted, the presence `ids`.
    package var ids: [String] { members.keys.sorted() }

    /// Each member's `user_info` (`null` when it has none) by user id, the presence `hash`.
    package var hash: [String: JSONValue] { members.mapValues { $0.userInfo ?? .null } }

    /// The number of sockets subscribed, over all members.
    package var socketCount: Int { userIdBySocket.count }

    /// The user id a socket is subscribed as, or `nil` when it is not subscribed.
    ///
    /// - Parameter socket: the socket.
    /// - Returns: its user id.
    package func userId(of socket: PusherSocketId) -> String? { userIdBySocket[socket] }

    /// A member's `user_info`, or `nil` when it has none or is not a member.
    ///
    /// - Parameter userId: the user id.
    /// - Returns: the `user_info` its first socket brought.
    package func userInfo(of userId: String) -> JSONValue? { members[userId]?.userInfo }

    /// Whether a user id is a member.
    ///
    /// - Parameter userId: the user id.
    /// - Returns: `true` when at least one socket is subscribed as that user.
    package func contains(_ userId: String) -> Bool { members[userId] != nil }

    /// The `subscription_succeeded` data, `{"presence":{"ids":[…],"hash":{…},"count":n}}`, as a JSON value.
    package var subscriptionData: JSONValue {
        .object([
            "presence": .object([
                "ids": .array(ids.map { .string($0) }),
                "hash": .object(hash),
                "count": .int(Int64(count)),
            ])
        ])
    }

    /// Adds a socket as a user.
    ///
    /// Adding a socket again as the same user changes nothing and returns `false`.
    ///
    /// - Parameters:
    ///   - socket: the subscribing socket.
    ///   - userId: the user id from its verified `channel_data`.
    ///   - userInfo: the `user_info` from it, if any.
    /// - Returns: `true` when the user was not a member before (send `member_added` to the others).
    /// - Throws: ``PusherProtocolError``: ``PusherProtocolError/Kind/presenceMemberTooLarge`` for an empty or
    ///   too long user id or too large `user_info`, ``PusherProtocolError/Kind/presenceLimitReached`` when a new
    ///   member would exceed ``Limits/maximumMembers``, ``PusherProtocolError/Kind/invalidChannelData`` when the
    ///   socket is already subscribed as another user. None closes the connection.
    @discardableResult
    package mutating func add(
        socket: PusherSocketId, userId: String, userInfo: JSONValue?
    ) throws(PusherProtocolError) -> Bool {
        if let existing = userIdBySocket[socket] {
            guard existing == userId else {
                throw PusherProtocolError(.invalidChannelData, "socket is already a member as another user")
            }
            return false
        }
        guard !userId.isEmpty, userId.utf16.count <= limits.maximumUserIdLength else {
            throw PusherProtocolError(
                .presenceMemberTooLarge, "user_id must have 1 to \(limits.maximumUserIdLength) characters")
        }
        if var member = members[userId] {
            member.sockets.insert(socket)
            members[userId] = member
            userIdBySocket[socket] = userId
            return false
        }
        if let userInfo, userInfo.jsonBytes.count > limits.maximumUserInfoBytes {
            throw PusherProtocolError(
                .presenceMemberTooLarge, "user_info is larger than \(limits.maximumUserInfoBytes) bytes")
        }
        guard members.count < limits.maximumMembers else {
            throw PusherProtocolError(
                .presenceLimitReached, "presence channel has its maximum of \(limits.maximumMembers) members")
        }
        members[userId] = Member(userInfo: userInfo, sockets: [socket])
        userIdBySocket[socket] = userId
        return true
    }

    /// Removes a socket (unsubscribed or disconnected).
    ///
    /// - Parameter socket: the socket leaving.
    /// - Returns: the user id when this was that user's last socket (send `member_removed`), else `nil` (another
    ///   socket of the user remains, or the socket was not subscribed).
    @discardableResult
    package mutating func remove(socket: PusherSocketId) -> String? {
        guard let userId = userIdBySocket.removeValue(forKey: socket), var member = members[userId] else {
            return nil
        }
        member.sockets.remove(socket)
        if member.sockets.isEmpty {
            members[userId] = nil
            return userId
        }
        members[userId] = member
        return nil
    }
}
