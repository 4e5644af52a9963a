/// Special ACL grantees.
public enum BmobACLRole: Sendable, Hashable {
    /// Everyone, signed in or not (`*`).
    case `public`
}
