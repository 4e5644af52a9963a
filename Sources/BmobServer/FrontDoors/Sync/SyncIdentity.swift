import BmobCrypto

/// Who a sync socket (and each of its live queries) runs as: nobody, a session token's user, or the app's master
/// key. Live queries of the same function, arguments and identity are run once for all their subscribers.
struct SyncIdentity: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case anonymous
        /// A Bmob session token, by its SHA-256 (the token itself is kept apart, never in a key).
        case user(tokenHash: String)
        case master
    }

    let kind: Kind
    /// The session token, for ``Kind/user(tokenHash:)``; not part of equality.
    let token: String?

    static let anonymous = SyncIdentity(kind: .anonymous, token: nil)
    static let master = SyncIdentity(kind: .master, token: nil)

    static func user(token: String) -> SyncIdentity {
        SyncIdentity(kind: .user(tokenHash: SHA256.hex(Array(token.utf8))), token: token)
    }

    static func == (lhs: SyncIdentity, rhs: SyncIdentity) -> Bool { lhs.kind == rhs.kind }
    func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
