import BmobCrypto
import BmobWire
import Testing

/// ``SigV4Authorization`` parsing: the forms clients send, and each rejection's ``SigV4AuthorizationError``.
@Suite struct SigV4AuthorizationTests {
    static let credential = "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request"
    static let signedHeaders = "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date"
    static let signature = "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"

    static func header(_ components: String...) -> String {
        "AWS4-HMAC-SHA256 " + components.joined(separator: ",")
    }

    @Test func parsesTheDocumentedExample() throws {
        let authorization = try SigV4Authorization(
            parsing: "AWS4-HMAC-SHA256 \(Self.credential),\(Self.signedHeaders),\(Self.signature)")
        #expect(authorization.accessKeyId == "AKIAIOSFODNN7EXAMPLE")
        #expect(authorization.date == "20130524")
        #expect(authorization.region == "us-east-1")
        #expect(authorization.service == "s3")
        #expect(authorization.scope == "20130524/us-east-1/s3/aws4_request")
        #expect(authorization.signedHeaders == ["host", "range", "x-amz-content-sha256", "x-amz-date"])
        #expect(Hex.encode(authorization.signature) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(try SigV4Authorization(parsing: authorization.description) == authorization)
    }

    /// Spacing AWS accepts: `, ` or `,`, tabs, several spaces after the algorithm, surrounding whitespace, any
    /// component order, uppercase hex.
    @Test(arguments: [
        "AWS4-HMAC-SHA256 \(credential), \(signedHeaders), \(signature)",
        "AWS4-HMAC-SHA256   \(credential) ,\(signedHeaders) ,  \(signature)",
        "AWS4-HMAC-SHA256\t\(credential),\t\(signedHeaders),\t\(signature)\t",
        "  AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signature)  ",
        "AWS4-HMAC-SHA256 \(signature), \(credential), \(signedHeaders)",
        "AWS4-HMAC-SHA256 \(credential),\(signedHeaders),Signature=F0E8BDB87C964420E857BD35B5D6ED310BD44F0170ABA48DD91039C6036BDB41",
    ])
    func acceptsSpacingVariants(value: String) throws {
        let expected = try SigV4Authorization(parsing: Self.header(Self.credential, Self.signedHeaders, Self.signature))
        #expect(try SigV4Authorization(parsing: value) == expected)
    }

    @Test(arguments: [
        ("", SigV4AuthorizationError.unsupportedAlgorithm),
        ("AWS4-HMAC-SHA256", .unsupportedAlgorithm),
        ("AWS AKIAIOSFODNN7EXAMPLE:frJIUN8DYpKDtOLCwo//yllqDzg=", .unsupportedAlgorithm),
        ("AWS4-HMAC-SHA512 \(credential),\(signedHeaders),\(signature)", .unsupportedAlgorithm),
        ("aws4-hmac-sha256 \(credential),\(signedHeaders),\(signature)", .unsupportedAlgorithm),
        ("AWS4-HMAC-SHA256\(credential),\(signedHeaders),\(signature)", .unsupportedAlgorithm),
        ("AWS4-HMAC-SHA256-PAYLOAD \(credential),\(signedHeaders),\(signature)", .unsupportedAlgorithm),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signature),", .malformedComponent),
        ("AWS4-HMAC-SHA256 \(credential),,\(signedHeaders),\(signature)", .malformedComponent),
        ("AWS4-HMAC-SHA256 \(credential) \(signedHeaders),\(signature)", .missingComponent("SignedHeaders")),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signature),Extra", .malformedComponent),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signature),Extra=1", .unknownComponent),
        ("AWS4-HMAC-SHA256 credential=A/20130524/us-east-1/s3/aws4_request,\(signedHeaders),\(signature)", .unknownComponent),
        ("AWS4-HMAC-SHA256 \(credential),\(credential),\(signedHeaders),\(signature)", .duplicateComponent("Credential")),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signedHeaders),\(signature)", .duplicateComponent("SignedHeaders")),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders),\(signature),\(signature)", .duplicateComponent("Signature")),
        ("AWS4-HMAC-SHA256 \(signedHeaders),\(signature)", .missingComponent("Credential")),
        ("AWS4-HMAC-SHA256 \(credential),\(signature)", .missingComponent("SignedHeaders")),
        ("AWS4-HMAC-SHA256 \(credential),\(signedHeaders)", .missingComponent("Signature")),
    ])
    func rejectsMalformedStructure(value: String, error: SigV4AuthorizationError) {
        #expect(throws: error) { try SigV4Authorization(parsing: value) }
    }

    @Test(arguments: [
        "Credential=",
        "Credential=AKID/20130524/us-east-1/s3",
        "Credential=AKID/20130524/us-east-1/s3/aws4_request/extra",
        "Credential=/20130524/us-east-1/s3/aws4_request",
        "Credential=AK ID/20130524/us-east-1/s3/aws4_request",
        "Credential=AKID/2013-05-24/us-east-1/s3/aws4_request",
        "Credential=AKID/20130231/us-east-1/s3/aws4_request",
        "Credential=AKID/20130524//s3/aws4_request",
        "Credential=AKID/20130524/us east/s3/aws4_request",
        "Credential=AKID/20130524/us-east-1/s3/aws4_REQUEST",
        "Credential=AKID/20130524/us-east-1/s\u{e9}/aws4_request",
        "Credential=AKID/20130524/\(String(repeating: "r", count: 65))/s3/aws4_request",
        "Credential=\(String(repeating: "K", count: 129))/20130524/us-east-1/s3/aws4_request",
        "Credential=AK\u{7F}ID/20130524/us-east-1/s3/aws4_request",
        "Credential=ключ/20130524/us-east-1/s3/aws4_request",
    ])
    func rejectsBadCredentials(credential: String) {
        #expect(throws: SigV4AuthorizationError.invalidCredential) {
            try SigV4Authorization(parsing: Self.header(credential, Self.signedHeaders, Self.signature))
        }
    }

    @Test func acceptsLongestAccessKeyId() throws {
        let key = String(repeating: "K", count: SigV4Authorization.maximumAccessKeyIdLength)
        let value = Self.header("Credential=\(key)/20130524/us-east-1/s3/aws4_request", Self.signedHeaders, Self.signature)
        #expect(try SigV4Authorization(parsing: value).accessKeyId == key)
    }

    @Test(arguments: [
        "SignedHeaders=",
        "SignedHeaders=host;;x-amz-date",
        "SignedHeaders=Host;x-amz-date",
        "SignedHeaders=x-amz-date;host",
        "SignedHeaders=host;host",
        "SignedHeaders=host;x amz",
        "SignedHeaders=host;x-amz-date;",
        "SignedHeaders=ho:st",
        "SignedHeaders=\(String(repeating: "h", count: 65))",
    ])
    func rejectsBadSignedHeaders(signedHeaders: String) {
        #expect(throws: SigV4AuthorizationError.invalidSignedHeaders) {
            try SigV4Authorization(parsing: Self.header(Self.credential, signedHeaders, Self.signature))
        }
    }

    @Test func boundsSignedHeaderCount() throws {
        func names(_ count: Int) -> String {
            "SignedHeaders=" + (0..<count).map { "h\(String(1000 + $0))" }.joined(separator: ";")
        }
        let most = try SigV4Authorization(parsing: Self.header(Self.credential, names(64), Self.signature))
        #expect(most.signedHeaders.count == 64)
        #expect(throws: SigV4AuthorizationError.tooManySignedHeaders) {
            try SigV4Authorization(parsing: Self.header(Self.credential, names(65), Self.signature))
        }
    }

    @Test(arguments: [
        "Signature=",
        "Signature=f0e8",
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb4",
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb411",
        "Signature=g0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bd b1",
    ])
    func rejectsBadSignatures(signature: String) {
        #expect(throws: SigV4AuthorizationError.invalidSignature) {
            try SigV4Authorization(parsing: Self.header(Self.credential, Self.signedHeaders, signature))
        }
    }

    @Test func boundsLength() {
        let padding = String(repeating: " ", count: SigV4Authorization.maximumLength)
        #expect(throws: SigV4AuthorizationError.tooLong) {
            try SigV4Authorization(parsing: Self.header(Self.credential, Self.signedHeaders, Self.signature) + padding)
        }
        #expect(throws: SigV4AuthorizationError.tooLong) {
            try SigV4Authorization(parsing: String(repeating: "A", count: 1_000_000))
        }
    }

    /// Messages name the problem but never echo the header.
    @Test func errorsDescribeWithoutQuoting() {
        let all: [SigV4AuthorizationError] = [
            .tooLong, .unsupportedAlgorithm, .malformedComponent, .unknownComponent, .duplicateComponent("Signature"),
            .missingComponent("Credential"), .invalidCredential, .invalidSignedHeaders, .tooManySignedHeaders,
            .invalidSignature,
        ]
        for error in all {
            #expect(!error.description.isEmpty)
            #expect(error.s3ErrorCode == "AuthorizationHeaderMalformed")
            #expect(error.httpStatus == 400)
        }
    }
}
