/// Names of the Bird Realtime protocol that apps use.
public enum BirdProtocol {
    /// Event names the client emits on channels and on ``BirdRealtime/member``, for
    /// ``BirdChannel/bind(_:_:)``.
    public enum Event {
        /// The subscription is live. On a ``PresenceChannel`` the data is the member dictionary and
        /// ``PresenceChannel/members`` and ``PresenceChannel/myId`` are set.
        public static let subscriptionSucceeded = "bird:subscription_succeeded"
        /// The channel could not be subscribed on this connection because its authorization failed (the
        /// authorizer threw, or the auth endpoint failed or answered something unreadable). Data:
        /// `["type": "AuthError", "error": message, "status": httpStatus?]`. A rejection by the edge arrives
        /// on ``BirdRealtime/onError(_:)`` instead.
        public static let subscriptionError = "bird:subscription_error"
        /// A member joined a presence channel. Data: `["user_id": id, "user_info": info?]`.
        public static let memberAdded = "bird:member_added"
        /// A member left a presence channel. Data: `["user_id": id]`.
        public static let memberRemoved = "bird:member_removed"
        /// The channel's subscriber count, for apps that opt in. Data: `["subscription_count": n]`.
        public static let subscriptionCount = "bird:subscription_count"
    }
}
