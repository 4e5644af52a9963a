/// What a connection's leaving a channel changed, for this node alone or for the whole cluster
/// (``PusherChannelBus``).
struct PusherLeaveOutcome: Sendable {
    /// The app.
    var applicationId: String
    /// The channel's name.
    var channel: String
    /// That was the channel's last connection (`channel_vacated`).
    var vacated: Bool
    /// On a presence channel: the user whose last connection left (`member_removed`).
    var goneUserId: String?
    /// The channel's connections now, when the leave was asked to count them (apps with subscription counts).
    var subscriptionCount: Int? = nil
    /// This node's sockets hear ``goneUserId``'s `member_removed` through the channel log: only the webhook is sent
    /// here.
    var deliveredThroughLog = false
}
