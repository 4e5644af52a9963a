package import BmobWire

/// Short-lived credentials for one multipart upload, in the shape of S3's temporary credentials.
package struct UploadCredentials: Sendable, Equatable {
    package var accessKeyId: String
    package var secretAccessKey: String
    package var sessionToken: String
    /// When they stop working, in seconds since 1970.
    package var expiresAt: Int64

    package init(accessKeyId: String, secretAccessKey: String, sessionToken: String, expiresAt: Int64) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
    }

    /// `{accessKeyId, secretAccessKey, sessionToken, expiration}` (expiration as `yyyy-MM-ddTHH:mm:ssZ`).
    package var json: JSONValue {
        [
            "accessKeyId": .string(accessKeyId), "secretAccessKey": .string(secretAccessKey),
            "sessionToken": .string(sessionToken),
            "expiration": .string(BmobDateFormat.format(millisecondsSince1970: expiresAt * 1000)),
        ]
    }
}
