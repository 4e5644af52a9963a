/// Who the offline cache belongs to (`sync.md` §2.6, user gating): the user the server last confirmed, and a hash of
/// the token it confirmed, so that a cold start with the same token can show the cache before the server answers.
struct OfflineStoreMeta: Codable, Sendable, Hashable {
    /// The confirmed user (`""` for signed out); `nil` when the server never confirmed one.
    var confirmedUserId: String?
    /// SHA-256 (hex) of the token confirmed, or of the empty string for none.
    var tokenHash: String?
}
