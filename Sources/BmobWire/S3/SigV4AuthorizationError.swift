/// Why an `Authorization` header is not a well-formed SigV4 one. ``description`` quotes nothing the client
/// sent, so it is safe to log and to return.
package enum SigV4AuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value is longer than ``SigV4Authorization/maximumLength``.
    case tooLong
    /// The value does not start with `AWS4-HMAC-SHA256` followed by a space.
    case unsupportedAlgorithm
    /// A component is empty or not `Name=value`.
    case malformedComponent
    /// A component is not `Credential`, `SignedHeaders` or `Signature`.
    case unknownComponent
    /// This component (`Credential`, `SignedHeaders` or `Signature`) appears twice.
    case duplicateComponent(String)
    /// This component (`Credential`, `SignedHeaders` or `Signature`) is missing.
    case missingComponent(String)
    /// The credential is not `<access key id>/<yyyyMMdd>/<region>/<service>/aws4_request` with an access key id
    /// of 1…``SigV4Authorization/maximumAccessKeyIdLength`` visible ASCII characters, a real date, and a region
    /// and service of ASCII letters, digits, `-` and `_`.
    case invalidCredential
    /// The signed headers are not `;`-separated lowercase field names, sorted, without repeats.
    case invalidSignedHeaders
    /// More than ``SigV4Authorization/maximumSignedHeaders`` headers are signed.
    case tooManySignedHeaders
    /// The signature is not 64 hexadecimal digits.
    case invalidSignature

    /// S3's error code for this problem.
    package var s3ErrorCode: String { "AuthorizationHeaderMalformed" }

    /// The HTTP status S3 answers with.
    package var httpStatus: Int { 400 }

    /// What was wrong, in a few words.
    package var description: String {
        switch self {
        case .tooLong: "Authorization header is too long"
        case .unsupportedAlgorithm: "Authorization header must use AWS4-HMAC-SHA256"
        case .malformedComponent: "Authorization header component is not Name=value"
        case .unknownComponent: "Authorization header has an unknown component"
        case .duplicateComponent(let name): "Authorization header repeats \(name)"
        case .missingComponent(let name): "Authorization header lacks \(name)"
        case .invalidCredential: "Credential must be <key id>/<yyyyMMdd>/<region>/<service>/aws4_request"
        case .invalidSignedHeaders: "SignedHeaders must be sorted, unique, lowercase names separated by ;"
        case .tooManySignedHeaders: "SignedHeaders names too many headers"
        case .invalidSignature: "Signature must be 64 hexadecimal digits"
        }
    }
}
