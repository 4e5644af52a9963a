/// What an authorizer returns for a private or presence channel: the signature, and for presence channels
/// the member's data, exactly as the backend signed it.
///
/// A backend signs `"{connection_id}:{channel_name}"` (private) or
/// `"{connection_id}:{channel_name}:{member_data}"` (presence) with the app secret, as hex HMAC-SHA256, and
/// answers `"{app_key}:{signature}"`. `member_data` is a JSON object text `{"user_id": …, "user_info"?: …}`.
public struct BirdAuthorization: Sendable, Hashable {
    /// `"{app_key}:{hex signature}"`.
    public var auth: String
    /// The presence member's JSON text, as signed; `nil` for private channels.
    public var memberData: String?

    /// An authorization.
    ///
    /// - Parameters:
    ///   - auth: `"{app_key}:{hex signature}"`.
    ///   - memberData: the presence member's JSON text, exactly as signed.
    public init(auth: String, memberData: String? = nil) {
        self.auth = auth
        self.memberData = memberData
    }
}
