import BmobCrypto
import BmobWire
import Testing

/// ``SigV4Verifier``: AWS's examples verify as received, what ``SigV4Signer`` signs verifies, and any change
/// to a signed part of the request does not.
@Suite struct SigV4VerifierTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    static let date: Int64 = 1_369_353_600

    /// A received request: method, path, query and headers, `Authorization` among them.
    struct Received {
        var method: String
        var path: String
        var query: String
        var headers: [(name: String, value: String)]

        func verify(
            secret: String = SigV4VerifierTests.secret, region: String = "us-east-1", service: String = "s3"
        ) throws -> SigV4VerifiedRequest {
            let value = try #require(headers.first { $0.name.lowercased() == "authorization" }?.value)
            let authorization = try SigV4Authorization(parsing: value)
            return try SigV4Verifier.verify(
                authorization, method: method, path: path, query: query, headers: headers, secretAccessKey: secret,
                region: region, service: service)
        }

        /// A copy with every field called `name` replaced by one with `value`, or removed when `value` is nil.
        func replacing(_ name: String, with value: String?) -> Received {
            var copy = self
            copy.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            if let value { copy.headers.append((name, value)) }
            return copy
        }
    }

    /// The AWS "GET Object" example, as it arrives.
    static let getObject = Received(
        method: "GET", path: "/test.txt", query: "",
        headers: [
            ("Host", "examplebucket.s3.amazonaws.com"),
            ("Range", "bytes=0-9"),
            ("x-amz-content-sha256", SigV4Canonical.emptyPayloadHash),
            ("x-amz-date", "20130524T000000Z"),
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                    + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                    + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
            ),
        ])

    /// What a client sends for `request` signed by `signer` at ``date``.
    static func received(_ request: SigV4Request, signer: SigV4Signer) -> Received {
        Received(
            method: request.method, path: request.path, query: request.queryString,
            headers: request.headers + signer.sign(request, secondsSince1970: date))
    }

    static let signer = SigV4Signer(
        credentials: SigV4Credentials(
            accessKeyId: "AKIDLOCAL", secretAccessKey: "local-secret", sessionToken: "eyJhIjoiYXBwIn0.c2ln"),
        region: "us-east-1")

    /// An upload-part request signed with temporary credentials.
    static let uploadPartPath = "/s3/files/2025/01/02/0123456789abcdef0123456789abcdef.png"
    static let uploadPart = received(
        SigV4Request(
            method: "PUT", unencodedPath: uploadPartPath,
            query: [("partNumber", "7"), ("uploadId", "u-1/2+3")],
            headers: [("Host", "files.example.com:8080"), ("Content-Length", "5")],
            payloadHash: SHA256.hex(Array("hello".utf8))),
        signer: signer)

    @Test func verifiesTheDocumentedGetObject() throws {
        let verified = try Self.getObject.verify()
        #expect(verified.accessKeyId == "AKIAIOSFODNN7EXAMPLE")
        #expect(verified.secondsSince1970 == Self.date)
        #expect(verified.payloadSHA256 == SHA256.hash([UInt8]()))
        #expect(verified.securityToken == nil)
    }

    /// The PUT example's `$` may arrive raw or escaped; both canonicalise to `%24`.
    @Test(arguments: ["/test$file.text", "/test%24file.text"])
    func verifiesTheDocumentedPutObject(path: String) throws {
        let received = Received(
            method: "PUT", path: path, query: "",
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-date", "20130524T000000Z"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                ("x-amz-content-sha256", "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"),
                (
                    "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                        + "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"
                        + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
                ),
            ])
        #expect(try received.verify().payloadSHA256 == SHA256.hash(Array("Welcome to Amazon S3.".utf8)))
    }

    /// Query strings as received: `lifecycle` without `=`, and list parameters in any order.
    @Test(arguments: [
        ("lifecycle", "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
        ("lifecycle=", "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
        ("max-keys=2&prefix=J", "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
        ("prefix=J&max-keys=2", "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
    ])
    func verifiesTheDocumentedBucketRequests(query: String, signature: String) throws {
        let received = Received(
            method: "GET", path: "/", query: query,
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("x-amz-date", "20130524T000000Z"),
                ("x-amz-content-sha256", SigV4Canonical.emptyPayloadHash),
                (
                    "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                        + "SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=\(signature)"
                ),
            ])
        #expect(try received.verify().secondsSince1970 == Self.date)
    }

    @Test func verifiesWhatTheSignerSigns() throws {
        let verified = try Self.uploadPart.verify(secret: "local-secret")
        #expect(verified.accessKeyId == "AKIDLOCAL")
        #expect(verified.securityToken == "eyJhIjoiYXBwIn0.c2ln")
        #expect(verified.payloadSHA256 == SHA256.hash(Array("hello".utf8)))
        #expect(Self.uploadPart.query == "partNumber=7&uploadId=u-1%2F2%2B3")
    }

    /// What proxies and HTTP stacks may change without breaking a signature: name case, value whitespace,
    /// query order and escaping of unreserved characters, and unsigned headers.
    @Test func toleratesHarmlessChanges() throws {
        var received = Self.uploadPart
        received.headers = received.headers.map { (name: $0.name.uppercased(), value: "  \($0.value) ") }
        received.headers.append(("User-Agent", "anything"))
        received.query = "uploadId=u-1%2F2%2B3&partNumber=7"
        received.path = "/s3/fil%65s/2025/01/02/0123456789abcdef0123456789abcdef.png"
        #expect(try received.verify(secret: "local-secret").accessKeyId == "AKIDLOCAL")
    }

    @Test func unsignedPayload() throws {
        let received = Self.received(
            SigV4Request(
                method: "GET", path: "/s3/files", query: [("uploadId", "u")], headers: [("Host", "h")],
                payloadHash: SigV4Canonical.unsignedPayload),
            signer: Self.signer)
        #expect(try received.verify(secret: "local-secret").payloadSHA256 == nil)
    }

    /// Any change to a signed part of the request fails with ``SigV4VerificationError/signatureMismatch``.
    @Test func rejectsTampering() {
        var cases: [Received] = []
        var changed = Self.uploadPart
        changed.method = "POST"
        cases.append(changed)
        changed = Self.uploadPart
        changed.path += "x"
        cases.append(changed)
        changed = Self.uploadPart
        changed.path = "/s3//files/2025/01/02/0123456789abcdef0123456789abcdef.png"
        cases.append(changed)
        changed = Self.uploadPart
        changed.query = "partNumber=8&uploadId=u-1%2F2%2B3"
        cases.append(changed)
        changed = Self.uploadPart
        changed.query += "&uploads"
        cases.append(changed)
        changed = Self.uploadPart
        changed.query = ""
        cases.append(changed)
        cases.append(Self.uploadPart.replacing("Host", with: "evil.example.com:8080"))
        cases.append(Self.uploadPart.replacing("x-amz-content-sha256", with: SHA256.hex(Array("world".utf8))))
        cases.append(Self.uploadPart.replacing("x-amz-content-sha256", with: SigV4Canonical.unsignedPayload))
        cases.append(Self.uploadPart.replacing("x-amz-date", with: "20130524T000001Z"))
        cases.append(Self.uploadPart.replacing("x-amz-security-token", with: "eyJhIjoib3RoZXIifQ.c2ln"))
        changed = Self.uploadPart
        changed.headers.append(("Content-Length", "6"))
        cases.append(changed)
        for received in cases {
            #expect(throws: SigV4VerificationError.signatureMismatch) { try received.verify(secret: "local-secret") }
        }
        #expect(throws: SigV4VerificationError.signatureMismatch) { try Self.uploadPart.verify(secret: "local-secreT") }
        #expect(throws: SigV4VerificationError.signatureMismatch) { try Self.getObject.verify(secret: "") }
    }

    @Test func rejectsAnotherScope() {
        #expect(throws: SigV4VerificationError.wrongRegion) {
            try Self.uploadPart.verify(secret: "local-secret", region: "us-west-2")
        }
        #expect(throws: SigV4VerificationError.wrongService) {
            try Self.uploadPart.verify(secret: "local-secret", service: "iam")
        }
        #expect(throws: SigV4VerificationError.scopeDateMismatch) {
            try Self.uploadPart.replacing("x-amz-date", with: "20130525T000000Z").verify(secret: "local-secret")
        }
    }

    @Test func rejectsMissingOrBadHeaders() {
        let received = Self.uploadPart
        #expect(throws: SigV4VerificationError.missingDate) {
            try received.replacing("x-amz-date", with: nil).verify(secret: "local-secret")
        }
        #expect(throws: SigV4VerificationError.invalidDate) {
            try received.replacing("x-amz-date", with: "2013-05-24T00:00:00Z").verify(secret: "local-secret")
        }
        var twoDates = received
        twoDates.headers.append(("X-Amz-Date", "20130524T000000Z"))
        #expect(throws: SigV4VerificationError.invalidDate) { try twoDates.verify(secret: "local-secret") }
        #expect(throws: SigV4VerificationError.missingPayloadHash) {
            try received.replacing("x-amz-content-sha256", with: nil).verify(secret: "local-secret")
        }
        for value in ["", "abc", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", String(repeating: "g", count: 64),
            String(repeating: "a", count: 62)]
        {
            #expect(throws: SigV4VerificationError.invalidPayloadHash) {
                try received.replacing("x-amz-content-sha256", with: value).verify(secret: "local-secret")
            }
        }
        #expect(throws: SigV4VerificationError.signedHeaderMissing) {
            try received.replacing("content-length", with: nil).verify(secret: "local-secret")
        }
    }

    /// `host`, `x-amz-date` and `x-amz-content-sha256` must be signed, whatever the signature.
    @Test(arguments: ["x-amz-content-sha256;x-amz-date", "host;x-amz-date", "host;x-amz-content-sha256"])
    func requiresCoreHeadersSigned(signedHeaders: String) throws {
        let value =
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=\(signedHeaders), Signature=\(String(repeating: "0", count: 64))"
        let received = Self.getObject.replacing("Authorization", with: value)
        #expect(throws: SigV4VerificationError.requiredHeaderNotSigned) { try received.verify() }
    }

    @Test func verifiesAnHTTPRequestHead() throws {
        let received = Self.uploadPart
        let head = HTTPRequestHead(
            method: HTTPMethod(rawValue: received.method), target: received.path + "?" + received.query,
            headers: HTTPHeaders(received.headers.map { HTTPField(name: $0.name, value: $0.value) }))
        let authorization = try SigV4Authorization(parsing: try #require(head.headers["authorization"]))
        let verified = try SigV4Verifier.verify(
            authorization, head: head, secretAccessKey: "local-secret", region: "us-east-1")
        #expect(verified.secondsSince1970 == Self.date)
    }

    @Test func errorsMapToS3Codes() {
        #expect(SigV4VerificationError.signatureMismatch.s3ErrorCode == "SignatureDoesNotMatch")
        #expect(SigV4VerificationError.signatureMismatch.httpStatus == 403)
        #expect(SigV4VerificationError.wrongRegion.s3ErrorCode == "AuthorizationHeaderMalformed")
        #expect(SigV4VerificationError.invalidPayloadHash.httpStatus == 400)
    }
}
