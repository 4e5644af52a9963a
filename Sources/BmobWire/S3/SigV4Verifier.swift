import BmobCrypto

/// Checks the SigV4 signature of a request as received, the server side of ``SigV4Signer``.
///
/// The caller parses the `Authorization` header (``SigV4Authorization``), finds the secret for its access key
/// id, and calls ``verify(_:method:path:query:headers:secretAccessKey:region:service:)``; on success it still
/// compares ``SigV4VerifiedRequest/secondsSince1970`` with its clock and the body with
/// ``SigV4VerifiedRequest/payloadSHA256``. Only header authorization with `x-amz-date` is supported (no
/// presigned URLs, no `Date`-only requests, no `STREAMING-*` payloads).
package enum SigV4Verifier {
    /// How far `x-amz-date` may be from the server's clock, either way, in seconds (S3's 15 minutes).
    package static let maximumClockSkewSeconds: Int64 = 900

    /// Verifies the request `method path?query` with `headers`, signed as `authorization` describes, against
    /// `secretAccessKey`, for `region` and `service`.
    ///
    /// `path` and `query` are the request-target's parts exactly as received (the query without `?`); they
    /// are canonicalised the way S3 does. `host`, `x-amz-date` and `x-amz-content-sha256` must be signed.
    /// The signature is compared in constant time.
    package static func verify(
        _ authorization: SigV4Authorization, method: String, path: some StringProtocol, query: some StringProtocol,
        headers: [(name: String, value: String)], secretAccessKey: String, region: String, service: String = "s3"
    ) throws(SigV4VerificationError) -> SigV4VerifiedRequest {
        guard authorization.region == region else { throw .wrongRegion }
        guard authorization.service == service else { throw .wrongService }
        let signed = Set(authorization.signedHeaders)
        guard signed.isSuperset(of: ["host", "x-amz-date", "x-amz-content-sha256"]) else {
            throw .requiredHeaderNotSigned
        }

        let dates = values(of: "x-amz-date", in: headers)
        guard let amzDate = dates.first else { throw .missingDate }
        guard dates.count == 1, let seconds = SigV4Canonical.secondsSince1970(amzDate: amzDate) else {
            throw .invalidDate
        }
        guard amzDate.utf8.prefix(8).elementsEqual(authorization.date.utf8) else { throw .scopeDateMismatch }

        let hashes = values(of: "x-amz-content-sha256", in: headers)
        guard let payloadHash = hashes.first else { throw .missingPayloadHash }
        guard hashes.count == 1 else { throw .invalidPayloadHash }
        let payloadSHA256: [UInt8]?
        if payloadHash == SigV4Canonical.unsignedPayload {
            payloadSHA256 = nil
        } else {
            guard let digest = SigV4Canonical.hexBytes(payloadHash.utf8), digest.count == SHA256.digestCount else {
                throw .invalidPayloadHash
            }
            payloadSHA256 = digest
        }

        guard let block = SigV4Canonical.canonicalHeaders(headers, signedHeaders: authorization.signedHeaders) else {
            throw .signedHeaderMissing
        }
        let canonicalRequest = SigV4Canonical.canonicalRequest(
            method: method, canonicalURI: SigV4Canonical.canonicalURI(receivedPath: path),
            canonicalQuery: SigV4Canonical.canonicalQuery(received: query), canonicalHeaders: block,
            signedHeaders: authorization.signedHeaders, payloadHash: payloadHash)
        let key = SigV4Canonical.signingKey(
            secretAccessKey: secretAccessKey, date: authorization.date, region: region, service: service)
        let expected = SigV4Canonical.signature(
            signingKey: key,
            stringToSign: SigV4Canonical.stringToSign(
                amzDate: amzDate, scope: authorization.scope, canonicalRequest: canonicalRequest))
        guard ConstantTime.equals(expected, authorization.signature) else { throw .signatureMismatch }

        return SigV4VerifiedRequest(
            accessKeyId: authorization.accessKeyId, secondsSince1970: seconds, payloadSHA256: payloadSHA256,
            securityToken: values(of: "x-amz-security-token", in: headers).first)
    }

    /// Verifies a request as the HTTP decoder produced it: ``verify(_:method:path:query:headers:secretAccessKey:region:service:)``
    /// with the head's method, target and fields.
    package static func verify(
        _ authorization: SigV4Authorization, head: HTTPRequestHead, secretAccessKey: String, region: String,
        service: String = "s3"
    ) throws(SigV4VerificationError) -> SigV4VerifiedRequest {
        try verify(
            authorization, method: head.method.rawValue, path: head.path, query: head.query,
            headers: head.headers.fields.map { ($0.name, $0.value) }, secretAccessKey: secretAccessKey,
            region: region, service: service)
    }

    /// The values of every field called `name` (lowercase), trimmed as SigV4 signs them.
    private static func values(of name: String, in headers: [(name: String, value: String)]) -> [String] {
        headers.filter { SigV4Canonical.lowercasedName($0.name) == name }
            .map { SigV4Canonical.canonicalHeaderValue($0.value) }
    }
}
