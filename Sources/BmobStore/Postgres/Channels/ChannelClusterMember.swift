/// A presence member as the whole cluster sees it: a user id once, however many connections it has on however
/// many nodes, with the `user_info` its earliest connection joined with (JSON text, as received).
package struct ChannelClusterMember: Sendable, Hashable {
    /// The member's user id.
    package var userId: String
    /// Its `user_info` as JSON text, `nil` when it joined without one.
    package var userInfo: String?

    /// A member.
    package init(userId: String, userInfo: String?) {
        self.userId = userId
        self.userInfo = userInfo
    }
}
