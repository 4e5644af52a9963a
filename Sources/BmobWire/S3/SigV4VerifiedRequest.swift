/// What ``SigV4Verifier`` established about a request whose signature it accepted.
package struct SigV4VerifiedRequest: Sendable, Hashable {
    /// The access key id that signed it.
    package var accessKeyId: String
    /// When the client says it signed it (`x-amz-date`), in seconds since 1970 UTC; the caller compares it
    /// with its clock (S3 allows ``SigV4Verifier/maximumClockSkewSeconds`` either way).
    package var secondsSince1970: Int64
    /// The SHA-256 the body must have, or `nil` for `UNSIGNED-PAYLOAD`.
    package var payloadSHA256: [UInt8]?
    /// The `x-amz-security-token` sent, if any.
    package var securityToken: String?

    /// A result from its parts.
    package init(accessKeyId: String, secondsSince1970: Int64, payloadSHA256: [UInt8]?, securityToken: String?) {
        self.accessKeyId = accessKeyId
        self.secondsSince1970 = secondsSince1970
        self.payloadSHA256 = payloadSHA256
        self.securityToken = securityToken
    }
}
