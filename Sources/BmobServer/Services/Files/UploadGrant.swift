package import BmobWire

/// What an upload's session token grants: writing one key of one app, until a time.
package struct UploadGrant: Sendable, Equatable {
    /// The app the upload belongs to.
    package var applicationId: String
    /// The one key the credentials may write.
    package var key: FileKey
    /// When the credentials stop working, in seconds since 1970.
    package var expiresAt: Int64

    package init(applicationId: String, key: FileKey, expiresAt: Int64) {
        self.applicationId = applicationId
        self.key = key
        self.expiresAt = expiresAt
    }
}
