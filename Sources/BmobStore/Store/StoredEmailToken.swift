/// The secret of an emailed link (password reset, email verification) as the store keeps it: never the secret
/// itself, only its SHA-256, like sessions. A token is used once, then deleted.
package struct StoredEmailToken: Sendable, Equatable {
    /// What the link does.
    package enum Purpose: String, Sendable {
        /// `GET /1/resetPassword/<token>`: choose a new password.
        case passwordReset
        /// `GET /1/verifyEmail/<token>`: mark the email address verified.
        case emailVerification
    }

    /// Lowercase hex SHA-256 of the secret in the link.
    package var tokenHash: String
    /// What the link does.
    package var purpose: Purpose
    /// The `_User` it acts on.
    package var userId: String
    /// The address the link was mailed to (a verification applies only while the user still has it).
    package var email: String
    /// When it was made, milliseconds since 1970 UTC.
    package var createdAt: Int64
    /// When it stops being valid, milliseconds since 1970 UTC.
    package var expiresAt: Int64

    /// Makes a token value.
    package init(tokenHash: String, purpose: Purpose, userId: String, email: String, createdAt: Int64, expiresAt: Int64)
    {
        self.tokenHash = tokenHash
        self.purpose = purpose
        self.userId = userId
        self.email = email
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
