/// A login session as the store keeps it: never the token itself, only its SHA-256.
package struct StoredSession: Sendable, Equatable {
    /// Lowercase hex SHA-256 of the token the client holds.
    package var tokenHash: String
    /// The `_User` the session belongs to.
    package var userId: String
    /// When it was made, milliseconds since 1970 UTC.
    package var createdAt: Int64
    /// When it stops being valid, milliseconds since 1970 UTC.
    package var expiresAt: Int64

    /// Makes a session value.
    package init(tokenHash: String, userId: String, createdAt: Int64, expiresAt: Int64) {
        self.tokenHash = tokenHash
        self.userId = userId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
