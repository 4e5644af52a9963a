/// Signs S3 requests with AWS Signature Version 4 (`Authorization` header, payload hash in
/// `x-amz-content-sha256`), as S3, MinIO, moto and `bmob serve`'s `/s3` endpoint check them.
package struct SigV4Signer: Sendable {
    /// The credentials signed with.
    package var credentials: SigV4Credentials
    /// The region of the credential scope, such as `us-east-1`.
    package var region: String
    /// The service of the credential scope.
    package var service: String

    /// A signer for `service` (S3 by default) in `region`.
    package init(credentials: SigV4Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to `request`, sent at `secondsSince1970`: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` with temporary credentials, and `Authorization`. Every header of the request is
    /// signed along with them.
    package func sign(_ request: SigV4Request, secondsSince1970: Int64) -> [(name: String, value: String)] {
        let amzDate = SigV4Canonical.amzDate(secondsSince1970: secondsSince1970)
        var added: [(name: String, value: String)] = [
            ("x-amz-date", amzDate), ("x-amz-content-sha256", request.payloadHash),
        ]
        if let token = credentials.sessionToken {
            added.append(("x-amz-security-token", token))
        }
        added.append(("Authorization", authorization(for: request, amzDate: amzDate).description))
        return added
    }

    /// The parsed form of the `Authorization` value ``sign(_:secondsSince1970:)`` sends.
    package func authorization(for request: SigV4Request, secondsSince1970: Int64) -> SigV4Authorization {
        authorization(for: request, amzDate: SigV4Canonical.amzDate(secondsSince1970: secondsSince1970))
    }

    /// The canonical request signed for `request` at `secondsSince1970`, for tests and diagnostics.
    package func canonicalRequest(for request: SigV4Request, secondsSince1970: Int64) -> String {
        canonicalRequest(for: request, amzDate: SigV4Canonical.amzDate(secondsSince1970: secondsSince1970)).text
    }

    private func authorization(for request: SigV4Request, amzDate: String) -> SigV4Authorization {
        let date = String(amzDate.prefix(8))
        let (text, signedHeaders) = canonicalRequest(for: request, amzDate: amzDate)
        let scope = SigV4Canonical.scope(date: date, region: region, service: service)
        let key = SigV4Canonical.signingKey(
            secretAccessKey: credentials.secretAccessKey, date: date, region: region, service: service)
        let signature = SigV4Canonical.signature(
            signingKey: key,
            stringToSign: SigV4Canonical.stringToSign(amzDate: amzDate, scope: scope, canonicalRequest: text))
        return SigV4Authorization(
            accessKeyId: credentials.accessKeyId, date: date, region: region, service: service,
            signedHeaders: signedHeaders, signature: signature)
    }

    private func canonicalRequest(for request: SigV4Request, amzDate: String) -> (text: String, signedHeaders: [String]) {
        var headers = request.headers.filter { !Self.suppliedHeaders.contains(SigV4Canonical.lowercasedName($0.name)) }
        headers.append(("x-amz-date", amzDate))
        headers.append(("x-amz-content-sha256", request.payloadHash))
        if let token = credentials.sessionToken {
            headers.append(("x-amz-security-token", token))
        }
        let signedHeaders = Set(headers.map { SigV4Canonical.lowercasedName($0.name) })
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // Every signed name comes from `headers`, so the block always exists.
        let block = SigV4Canonical.canonicalHeaders(headers, signedHeaders: signedHeaders) ?? ""
        let text = SigV4Canonical.canonicalRequest(
            method: request.method, canonicalURI: request.path.isEmpty ? "/" : request.path,
            canonicalQuery: SigV4Canonical.canonicalQuery(request.query), canonicalHeaders: block,
            signedHeaders: signedHeaders, payloadHash: request.payloadHash)
        return (text, signedHeaders)
    }

    /// Headers the signer writes itself; caller-provided copies are dropped so that only one is signed.
    private static let suppliedHeaders: Set<String> = [
        "authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token",
    ]
}
