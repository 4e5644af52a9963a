/// The credentials a SigV4 request is signed with: a long-lived key pair, or short-lived ones issued with a
/// session token (what `/8/cdn` hands out for multipart uploads).
package struct SigV4Credentials: Sendable, Hashable {
    /// The access key id, named in the `Authorization` header's credential.
    package var accessKeyId: String
    /// The secret the signing key is derived from; never sent.
    package var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    package var sessionToken: String?

    /// Credentials from their parts.
    package init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
