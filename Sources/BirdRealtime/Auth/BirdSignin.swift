/// The member a connection signed in as, the value of ``BirdRealtime/signin()``.
public struct BirdSignin: Sendable, Hashable {
    /// The member's id (`user_data.id`); events for it arrive on ``BirdRealtime/member``.
    public var memberId: String
    /// The signed `user_data` JSON text, as the member endpoint returned it.
    public var memberData: String

    /// A signed-in member.
    ///
    /// - Parameters:
    ///   - memberId: the member's id.
    ///   - memberData: the signed `user_data` text.
    public init(memberId: String, memberData: String) {
        self.memberId = memberId
        self.memberData = memberData
    }
}
