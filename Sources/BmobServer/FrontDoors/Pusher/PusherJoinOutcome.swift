import BmobWire

/// What a connection's joining a channel changed, for this node alone or for the whole cluster
/// (``PusherChannelBus``).
struct PusherJoinOutcome: Sendable {
    /// The channel had no connection before (`channel_occupied`).
    var occupied: Bool
    /// On a presence channel: the user had no connection on it before (`member_added`).
    var newMember: Bool
    /// On a presence channel: its members now, the joiner included (`subscription_succeeded`).
    var members: PusherPresenceMembers?
    /// The channel's connections now, when the join was asked to count them (apps with subscription counts).
    var subscriptionCount: Int? = nil
}
