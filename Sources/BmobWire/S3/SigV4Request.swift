/// A request to be signed by ``SigV4Signer``: what goes into its canonical request.
package struct SigV4Request: Sendable {
    /// The HTTP method, such as `PUT`.
    package var method: String
    /// The path as sent, already encoded per S3's rules (``SigV4Canonical/encodePath(_:)`` makes one from an
    /// object key); it is signed exactly as given.
    package var path: String
    /// The unencoded query parameters; ``SigV4Canonical/canonicalQuery(_:)`` encodes and sorts them, and its
    /// result is also the query string to send.
    package var query: [(name: String, value: String)]
    /// The headers to sign, names in any case; `host` must be among them. The signer supplies `x-amz-date`,
    /// `x-amz-content-sha256` and `x-amz-security-token` itself and ignores those given here.
    package var headers: [(name: String, value: String)]
    /// The lowercase hex SHA-256 of the body, or ``SigV4Canonical/unsignedPayload``.
    package var payloadHash: String

    /// A request whose `path` is already encoded.
    package init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)], payloadHash: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }

    /// A request for an unencoded path (`/bucket/2025/01/02/my file.png`), which is encoded segment by segment
    /// with ``SigV4Canonical/encodePath(_:)``.
    package init(
        method: String, unencodedPath: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)], payloadHash: String
    ) {
        self.init(
            method: method, path: SigV4Canonical.encodePath(unencodedPath), query: query, headers: headers,
            payloadHash: payloadHash)
    }

    /// The query string to send (without `?`): the canonical one, so the server's canonical form is the same.
    package var queryString: String {
        SigV4Canonical.canonicalQuery(query)
    }
}
