import BmobCrypto
import BmobWire
import Testing

/// ``SigV4Signer`` against the worked examples of AWS's "Signature Calculations for the Authorization Header:
/// Transferring Payload in a Single Chunk" (Amazon S3 API reference).
@Suite struct SigV4SignerTests {
    /// 2013-05-24T00:00:00Z.
    static let date: Int64 = 1_369_353_600
    static let signer = SigV4Signer(
        credentials: SigV4Credentials(
            accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    static let host = ("Host", "examplebucket.s3.amazonaws.com")

    /// The value of the header `name` among `headers`.
    static func header(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name == name }?.value
    }

    @Test func getObjectWithRange() {
        let request = SigV4Request(
            method: "GET", path: "/test.txt", headers: [Self.host, ("Range", "bytes=0-9")],
            payloadHash: SigV4Canonical.emptyPayloadHash)
        let canonical = """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """
        #expect(Self.signer.canonicalRequest(for: request, secondsSince1970: Self.date) == canonical)
        #expect(SHA256.hex(Array(canonical.utf8)) == "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972")

        let headers = Self.signer.sign(request, secondsSince1970: Self.date)
        #expect(headers.map(\.name) == ["x-amz-date", "x-amz-content-sha256", "Authorization"])
        #expect(Self.header("x-amz-date", in: headers) == "20130524T000000Z")
        #expect(Self.header("x-amz-content-sha256", in: headers) == SigV4Canonical.emptyPayloadHash)
        #expect(
            Self.header("Authorization", in: headers)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObject() {
        let body = Array("Welcome to Amazon S3.".utf8)
        let payloadHash = SHA256.hex(body)
        #expect(payloadHash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        // The key has a `$`, which the canonical URI must encode (once).
        let request = SigV4Request(
            method: "PUT", unencodedPath: "/test$file.text",
            headers: [
                Self.host, ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
            ],
            payloadHash: payloadHash)
        #expect(request.path == "/test%24file.text")
        let canonical = """
            PUT
            /test%24file.text

            date:Fri, 24 May 2013 00:00:00 GMT
            host:examplebucket.s3.amazonaws.com
            x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
            x-amz-date:20130524T000000Z
            x-amz-storage-class:REDUCED_REDUNDANCY

            date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class
            44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
            """
        #expect(Self.signer.canonicalRequest(for: request, secondsSince1970: Self.date) == canonical)
        #expect(SHA256.hex(Array(canonical.utf8)) == "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d")
        let authorization = Self.signer.authorization(for: request, secondsSince1970: Self.date)
        #expect(Hex.encode(authorization.signature) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(authorization.signedHeaders == ["date", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-storage-class"])
    }

    @Test func getBucketLifecycle() {
        let request = SigV4Request(
            method: "GET", path: "/", query: [("lifecycle", "")], headers: [Self.host],
            payloadHash: SigV4Canonical.emptyPayloadHash)
        #expect(request.queryString == "lifecycle=")
        let canonical = """
            GET
            /
            lifecycle=
            host:examplebucket.s3.amazonaws.com
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """
        #expect(Self.signer.canonicalRequest(for: request, secondsSince1970: Self.date) == canonical)
        let authorization = Self.signer.authorization(for: request, secondsSince1970: Self.date)
        #expect(Hex.encode(authorization.signature) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test func listObjects() {
        // Given out of order: the canonical query sorts by name.
        let request = SigV4Request(
            method: "GET", path: "/", query: [("prefix", "J"), ("max-keys", "2")], headers: [Self.host],
            payloadHash: SigV4Canonical.emptyPayloadHash)
        #expect(request.queryString == "max-keys=2&prefix=J")
        let authorization = Self.signer.authorization(for: request, secondsSince1970: Self.date)
        #expect(Hex.encode(authorization.signature) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    /// Temporary credentials add and sign `x-amz-security-token`; headers the signer supplies are not taken
    /// from the caller.
    @Test func sessionTokenIsSentAndSigned() throws {
        var signer = Self.signer
        signer.credentials.sessionToken = "token/with+chars=="
        let request = SigV4Request(
            method: "POST", path: "/files/key.bin", query: [("uploads", "")],
            headers: [Self.host, ("X-Amz-Date", "19990101T000000Z"), ("authorization", "stale")],
            payloadHash: SigV4Canonical.emptyPayloadHash)
        let headers = signer.sign(request, secondsSince1970: Self.date)
        #expect(headers.map(\.name) == ["x-amz-date", "x-amz-content-sha256", "x-amz-security-token", "Authorization"])
        #expect(Self.header("x-amz-security-token", in: headers) == "token/with+chars==")
        let authorization = try SigV4Authorization(parsing: try #require(Self.header("Authorization", in: headers)))
        #expect(authorization.signedHeaders == ["host", "x-amz-content-sha256", "x-amz-date", "x-amz-security-token"])
        #expect(!signer.canonicalRequest(for: request, secondsSince1970: Self.date).contains("1999"))
    }

    /// Header values are trimmed and inner runs of spaces collapsed; repeated fields join with commas.
    @Test func headerValuesAreCanonicalised() {
        let request = SigV4Request(
            method: "GET", path: "/",
            headers: [Self.host, ("My-Header1", "  a   b \t c  "), ("my-header1", "second"), ("X-Empty", "")],
            payloadHash: SigV4Canonical.unsignedPayload)
        let canonical = Self.signer.canonicalRequest(for: request, secondsSince1970: Self.date)
        #expect(canonical.contains("\nmy-header1:a b c,second\n"))
        #expect(canonical.contains("\nx-empty:\n"))
        #expect(canonical.hasSuffix("host;my-header1;x-amz-content-sha256;x-amz-date;x-empty\nUNSIGNED-PAYLOAD"))
    }
}
