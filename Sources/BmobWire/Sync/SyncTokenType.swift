/// What an `Authenticate` message carries (`sync.md` §1.3): a user's session token, an admin key, or nothing
/// (signed out).
package enum SyncTokenType: String, Sendable, Hashable, CaseIterable {
    /// A user's session token in `value`.
    case user = "User"
    /// An admin (master) key in `value`.
    case admin = "Admin"
    /// No token: the socket is anonymous from now on.
    case none = "None"
}
