/// Why a request's SigV4 signature was not accepted. ``description`` quotes nothing the client sent.
package enum SigV4VerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The credential scope names another region.
    case wrongRegion
    /// The credential scope names another service.
    case wrongService
    /// The credential scope's date is not the day of `x-amz-date`.
    case scopeDateMismatch
    /// `host`, `x-amz-date` or `x-amz-content-sha256` is not among the signed headers.
    case requiredHeaderNotSigned
    /// A header named in `SignedHeaders` is not in the request.
    case signedHeaderMissing
    /// The request has no `x-amz-date` header.
    case missingDate
    /// `x-amz-date` is not `yyyyMMdd'T'HHmmss'Z'`.
    case invalidDate
    /// The request has no `x-amz-content-sha256` header.
    case missingPayloadHash
    /// `x-amz-content-sha256` is neither 64 hexadecimal digits nor `UNSIGNED-PAYLOAD`.
    case invalidPayloadHash
    /// The signature does not match the request: another secret, or a request changed since it was signed.
    case signatureMismatch

    /// S3's error code for this problem.
    package var s3ErrorCode: String {
        switch self {
        case .wrongRegion, .wrongService, .scopeDateMismatch: "AuthorizationHeaderMalformed"
        case .requiredHeaderNotSigned, .signedHeaderMissing, .missingDate, .invalidDate: "AccessDenied"
        case .missingPayloadHash: "InvalidRequest"
        case .invalidPayloadHash: "InvalidArgument"
        case .signatureMismatch: "SignatureDoesNotMatch"
        }
    }

    /// The HTTP status S3 answers with.
    package var httpStatus: Int {
        switch self {
        case .wrongRegion, .wrongService, .scopeDateMismatch, .missingPayloadHash, .invalidPayloadHash: 400
        case .requiredHeaderNotSigned, .signedHeaderMissing, .missingDate, .invalidDate, .signatureMismatch: 403
        }
    }

    /// What was wrong, in a few words.
    package var description: String {
        switch self {
        case .wrongRegion: "credential scope names the wrong region"
        case .wrongService: "credential scope names the wrong service"
        case .scopeDateMismatch: "credential scope date is not the day of x-amz-date"
        case .requiredHeaderNotSigned: "host, x-amz-date and x-amz-content-sha256 must be signed"
        case .signedHeaderMissing: "a signed header is missing from the request"
        case .missingDate: "x-amz-date header is required"
        case .invalidDate: "x-amz-date must be yyyyMMddTHHmmssZ"
        case .missingPayloadHash: "x-amz-content-sha256 header is required"
        case .invalidPayloadHash: "x-amz-content-sha256 must be a SHA-256 in hex or UNSIGNED-PAYLOAD"
        case .signatureMismatch: "the request signature does not match"
        }
    }
}
