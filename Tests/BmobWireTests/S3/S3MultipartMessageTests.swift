import BmobWire
import Testing

/// The S3 multipart messages: documents as S3, moto and boto write them decode; what we encode decodes to the
/// same value; invalid values are rejected with the right code.
@Suite struct S3MultipartMessageTests {
    /// The code of the ``S3XMLError`` that `decode` throws, or `nil` when it throws none.
    static func failure(_ decode: () throws -> Void) -> S3XMLError.Code? {
        do {
            try decode()
            return nil
        } catch let error as S3XMLError {
            return error.code
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: InitiateMultipartUploadResult

    @Test func initiateFromS3() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Bucket>example-bucket</Bucket>
              <Key>example-object</Key>
              <UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>
            </InitiateMultipartUploadResult>
            """
        let result = try S3InitiateMultipartUploadResult(xml: Array(xml.utf8))
        #expect(
            result
                == S3InitiateMultipartUploadResult(
                    bucket: "example-bucket", key: "example-object",
                    uploadId: "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA"))
    }

    @Test func initiateRoundTrip() throws {
        let result = S3InitiateMultipartUploadResult(
            bucket: "files", key: "2025/01/02/0123456789abcdef0123456789abcdef.png", uploadId: "a&b<c>")
        #expect(
            result.xml
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<InitiateMultipartUploadResult "
                + "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Bucket>files</Bucket>"
                + "<Key>2025/01/02/0123456789abcdef0123456789abcdef.png</Key><UploadId>a&amp;b&lt;c&gt;</UploadId>"
                + "</InitiateMultipartUploadResult>")
        #expect(try S3InitiateMultipartUploadResult(xml: Array(result.xml.utf8)) == result)
    }

    @Test func initiateNeedsItsFields() {
        #expect(Self.failure { _ = try S3InitiateMultipartUploadResult(xml: Array("<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key></InitiateMultipartUploadResult>".utf8)) } == .missingElement)
        #expect(Self.failure { _ = try S3InitiateMultipartUploadResult(xml: Array("<Error><Code>x</Code></Error>".utf8)) } == .unexpectedRoot)
    }

    // MARK: ListPartsResult

    static let listPartsFromS3 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
          <Bucket>example-bucket</Bucket>
          <Key>example-object</Key>
          <UploadId>XXBsb2FkIElEIGZvciBlbHZpbmcncyVcdS1tb3ZpZS5tMnRzEEEwbG9hZA</UploadId>
          <Initiator>
              <ID>arn:aws:iam::111122223333:user/some-user-11116a31-17b5-4fb7-9df5-b288870f11xx</ID>
              <DisplayName>umat-user-11116a31-17b5-4fb7-9df5-b288870f11xx</DisplayName>
          </Initiator>
          <Owner>
            <ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID>
            <DisplayName>someName</DisplayName>
          </Owner>
          <StorageClass>STANDARD</StorageClass>
          <PartNumberMarker>1</PartNumberMarker>
          <NextPartNumberMarker>3</NextPartNumberMarker>
          <MaxParts>2</MaxParts>
          <IsTruncated>true</IsTruncated>
          <Part>
            <PartNumber>2</PartNumber>
            <LastModified>2010-11-10T20:48:34.000Z</LastModified>
            <ETag>"7778aef83f66abc1fa1e8477f296d394"</ETag>
            <Size>10485760</Size>
          </Part>
          <Part>
            <PartNumber>3</PartNumber>
            <LastModified>2010-11-10T20:48:33.000Z</LastModified>
            <ETag>&quot;aaaa18db4cc2f85cedef654fccc4a4x8&quot;</ETag>
            <Size>10485760</Size>
          </Part>
        </ListPartsResult>
        """

    @Test func listPartsFromS3() throws {
        let result = try S3ListPartsResult(xml: Array(Self.listPartsFromS3.utf8))
        #expect(result.bucket == "example-bucket")
        #expect(result.key == "example-object")
        #expect(result.uploadId == "XXBsb2FkIElEIGZvciBlbHZpbmcncyVcdS1tb3ZpZS5tMnRzEEEwbG9hZA")
        #expect(result.isTruncated)
        #expect(result.nextPartNumberMarker == 3)
        #expect(
            result.parts == [
                .init(partNumber: 2, etag: "\"7778aef83f66abc1fa1e8477f296d394\"", size: 10_485_760, lastModified: "2010-11-10T20:48:34.000Z"),
                .init(partNumber: 3, etag: "\"aaaa18db4cc2f85cedef654fccc4a4x8\"", size: 10_485_760, lastModified: "2010-11-10T20:48:33.000Z"),
            ])
        #expect(try S3ListPartsResult(xml: Array(result.xml.utf8)) == result)
    }

    /// moto's template: `False` capitalised, an empty marker, no parts.
    @Test func listPartsFromMoto() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Bucket>bucket</Bucket>
              <Key>the-key</Key>
              <UploadId>ZXhhbXBsZQ</UploadId>
              <StorageClass>STANDARD</StorageClass>
              <Initiator><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID></Initiator>
              <PartNumberMarker>0</PartNumberMarker>
              <NextPartNumberMarker></NextPartNumberMarker>
              <MaxParts>1000</MaxParts>
              <IsTruncated>False</IsTruncated>
            </ListPartsResult>
            """
        let result = try S3ListPartsResult(xml: Array(xml.utf8))
        #expect(result == S3ListPartsResult(bucket: "bucket", key: "the-key", uploadId: "ZXhhbXBsZQ", parts: []))
    }

    /// moto 5's ListParts answer names its root after AWS's shape, `ListPartsOutput`.
    @Test func listPartsOutputRoot() throws {
        let xml = """
            <ListPartsOutput xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket><Key>k</Key>\
            <UploadId>u</UploadId><Part><PartNumber>2</PartNumber><ETag>"e"</ETag><Size>7</Size></Part>\
            <IsTruncated>false</IsTruncated></ListPartsOutput>
            """
        let result = try S3ListPartsResult(xml: Array(xml.utf8))
        #expect(result.parts == [.init(partNumber: 2, etag: "\"e\"", size: 7)])
        #expect(throws: S3XMLError.self) { try S3ListPartsResult(xml: Array("<ListParts/>".utf8)) }
    }

    @Test func listPartsRoundTrip() throws {
        let result = S3ListPartsResult(
            bucket: "files", key: "k", uploadId: "u",
            parts: [
                .init(partNumber: 1, etag: "\"e1\"", size: 5_242_880, lastModified: "2025-01-02T03:04:05.000Z"),
                .init(partNumber: 10_000, etag: "\"e2\"", size: 0),
            ],
            isTruncated: true, nextPartNumberMarker: 10_000)
        #expect(try S3ListPartsResult(xml: Array(result.xml.utf8)) == result)
        let plain = S3ListPartsResult(bucket: "b", key: "", uploadId: "", parts: [])
        #expect(plain.xml.contains("<Key/>"))
        #expect(try S3ListPartsResult(xml: Array(plain.xml.utf8)) == plain)
    }

    @Test(arguments: [
        ("<PartNumber>0</PartNumber><ETag>e</ETag><Size>1</Size>", S3XMLError.Code.invalidValue),
        ("<PartNumber>10001</PartNumber><ETag>e</ETag><Size>1</Size>", .invalidValue),
        ("<PartNumber>-1</PartNumber><ETag>e</ETag><Size>1</Size>", .invalidValue),
        ("<PartNumber>1</PartNumber><ETag>e</ETag><Size>-1</Size>", .invalidValue),
        ("<PartNumber>1</PartNumber><ETag>e</ETag><Size>99999999999999999999</Size>", .invalidValue),
        ("<PartNumber>1</PartNumber><ETag>e</ETag><Size>1.5</Size>", .invalidValue),
        ("<PartNumber>1</PartNumber><ETag>e</ETag>", .missingElement),
        ("<PartNumber>1</PartNumber><Size>1</Size>", .missingElement),
        ("<ETag>e</ETag><Size>1</Size>", .missingElement),
    ])
    func listPartsRejectsBadParts(part: String, code: S3XMLError.Code) {
        let xml = "<ListPartsResult><Bucket>b</Bucket><Key>k</Key><UploadId>u</UploadId><Part>\(part)</Part></ListPartsResult>"
        #expect(Self.failure { _ = try S3ListPartsResult(xml: Array(xml.utf8)) } == code)
    }

    @Test func listPartsRejectsBadFlags() {
        let base = "<ListPartsResult><Bucket>b</Bucket><Key>k</Key><UploadId>u</UploadId>"
        #expect(Self.failure { _ = try S3ListPartsResult(xml: Array((base + "<IsTruncated>yes</IsTruncated></ListPartsResult>").utf8)) } == .invalidValue)
        #expect(Self.failure { _ = try S3ListPartsResult(xml: Array((base + "<NextPartNumberMarker>x</NextPartNumberMarker></ListPartsResult>").utf8)) } == .invalidValue)
        #expect(Self.failure { _ = try S3ListPartsResult(xml: Array("<ListPartsResult><Key>k</Key><UploadId>u</UploadId></ListPartsResult>".utf8)) } == .missingElement)
        #expect(
            (try? S3ListPartsResult(xml: Array((base + "<IsTruncated> TRUE </IsTruncated><NextPartNumberMarker> 7 </NextPartNumberMarker></ListPartsResult>").utf8)))
                .map { $0.isTruncated && $0.nextPartNumberMarker == 7 } == true)
    }

    // MARK: CompleteMultipartUpload

    /// The request as the S3 documentation shows it (no namespace, indented) and as boto sends it (namespace,
    /// compact, `ETag` before `PartNumber`, quotes as entities).
    @Test func completeFromClients() throws {
        let documented = """
            <CompleteMultipartUpload>
              <Part>
                <PartNumber>1</PartNumber>
                <ETag>"a54357aff0632cce46d942af68356b38"</ETag>
              </Part>
              <Part>
                <PartNumber>2</PartNumber>
                <ETag>"0c78aef83f66abc1fa1e8477f296d394"</ETag>
              </Part>
              <Part>
                <PartNumber>3</PartNumber>
                <ETag>"acbd18db4cc2f85cedef654fccc4a4d8"</ETag>
              </Part>
            </CompleteMultipartUpload>
            """
        let request = try S3CompleteMultipartUpload(xml: Array(documented.utf8))
        #expect(request.parts.map(\.partNumber) == [1, 2, 3])
        #expect(request.parts[0].etag == "\"a54357aff0632cce46d942af68356b38\"")

        let boto =
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Part>"
            + "<ETag>&quot;a54357aff0632cce46d942af68356b38&quot;</ETag><PartNumber>1</PartNumber></Part>"
            + "<Part><ETag>&quot;x&quot;</ETag><PartNumber>4</PartNumber><ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part>"
            + "</CompleteMultipartUpload>"
        let fromBoto = try S3CompleteMultipartUpload(xml: Array(boto.utf8))
        #expect(
            fromBoto
                == S3CompleteMultipartUpload(parts: [
                    .init(partNumber: 1, etag: "\"a54357aff0632cce46d942af68356b38\""), .init(partNumber: 4, etag: "\"x\""),
                ]))
    }

    @Test func completeRoundTrip() throws {
        let request = S3CompleteMultipartUpload(parts: (1...3).map { .init(partNumber: $0 * 2, etag: "\"etag-\($0)\"") })
        #expect(
            request.xml
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CompleteMultipartUpload "
                + "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Part><PartNumber>2</PartNumber>"
                + "<ETag>\"etag-1\"</ETag></Part><Part><PartNumber>4</PartNumber><ETag>\"etag-2\"</ETag></Part>"
                + "<Part><PartNumber>6</PartNumber><ETag>\"etag-3\"</ETag></Part></CompleteMultipartUpload>")
        #expect(try S3CompleteMultipartUpload(xml: Array(request.xml.utf8)) == request)
    }

    /// 10,000 parts, the most S3 allows, with an S3 ETag each, fit the reader's bounds.
    @Test func completeWithMostParts() throws {
        let request = S3CompleteMultipartUpload(
            parts: (1...S3CompleteMultipartUpload.maximumParts).map {
                .init(partNumber: $0, etag: "\"0123456789abcdef0123456789abcdef\"")
            })
        #expect(try S3CompleteMultipartUpload(xml: Array(request.xml.utf8)) == request)
    }

    @Test(arguments: [
        ("<Part><PartNumber>2</PartNumber><ETag>a</ETag></Part><Part><PartNumber>1</PartNumber><ETag>b</ETag></Part>", S3XMLError.Code.invalidPartOrder),
        ("<Part><PartNumber>2</PartNumber><ETag>a</ETag></Part><Part><PartNumber>2</PartNumber><ETag>b</ETag></Part>", .invalidPartOrder),
        ("<Part><PartNumber>0</PartNumber><ETag>a</ETag></Part>", .invalidValue),
        ("<Part><PartNumber>10001</PartNumber><ETag>a</ETag></Part>", .invalidValue),
        ("<Part><PartNumber>one</PartNumber><ETag>a</ETag></Part>", .invalidValue),
        ("<Part><PartNumber></PartNumber><ETag>a</ETag></Part>", .invalidValue),
        ("<Part><ETag>a</ETag></Part>", .missingElement),
        ("<Part><PartNumber>1</PartNumber></Part>", .missingElement),
        ("", .missingElement),
        ("<part><PartNumber>1</PartNumber><ETag>a</ETag></part>", .missingElement),
    ])
    func completeRejects(parts: String, code: S3XMLError.Code) {
        let xml = "<CompleteMultipartUpload>\(parts)</CompleteMultipartUpload>"
        #expect(Self.failure { _ = try S3CompleteMultipartUpload(xml: Array(xml.utf8)) } == code)
    }

    @Test func completeBoundsPartCount() {
        let parts = String(repeating: "<Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>", count: 10_001)
        let xml = "<CompleteMultipartUpload>\(parts)</CompleteMultipartUpload>"
        #expect(Self.failure { _ = try S3CompleteMultipartUpload(xml: Array(xml.utf8)) } == .tooManyParts)
    }

    @Test func errorsMapToS3Codes() {
        #expect(S3XMLError(.invalidPartOrder, "x").s3ErrorCode == "InvalidPartOrder")
        for code in S3XMLError.Code.allCases where code != .invalidPartOrder {
            #expect(S3XMLError(code, "x").s3ErrorCode == "MalformedXML")
        }
    }

    // MARK: CompleteMultipartUploadResult

    @Test func completeResultFromS3() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Location>http://Example-Bucket.s3.us-east-1.amazonaws.com/Example-Object</Location>
              <Bucket>Example-Bucket</Bucket>
              <Key>Example-Object</Key>
              <ETag>"3858f62230ac3c915f300c664312c11f-9"</ETag>
              <ChecksumCRC32>AAAAAA==</ChecksumCRC32>
            </CompleteMultipartUploadResult>
            """
        let result = try S3CompleteMultipartUploadResult(xml: Array(xml.utf8))
        #expect(
            result
                == S3CompleteMultipartUploadResult(
                    location: "http://Example-Bucket.s3.us-east-1.amazonaws.com/Example-Object", bucket: "Example-Bucket",
                    key: "Example-Object", etag: "\"3858f62230ac3c915f300c664312c11f-9\""))
        #expect(try S3CompleteMultipartUploadResult(xml: Array(result.xml.utf8)) == result)
        #expect(result.xml.contains("xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\""))
    }

    @Test func completeResultNeedsItsFields() {
        let xml = "<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><ETag>e</ETag></CompleteMultipartUploadResult>"
        #expect(Self.failure { _ = try S3CompleteMultipartUploadResult(xml: Array(xml.utf8)) } == .missingElement)
    }

    // MARK: Error

    @Test func errorFromS3AndMoto() throws {
        let s3 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error>
              <Code>NoSuchUpload</Code>
              <Message>The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.</Message>
              <UploadId>VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>
              <RequestId>4442587FB7D0A2F9</RequestId>
              <HostId>Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg==</HostId>
            </Error>
            """
        let error = try S3ErrorResponse(xml: Array(s3.utf8))
        #expect(error.code == "NoSuchUpload")
        #expect(error.message.hasPrefix("The specified upload does not exist."))
        #expect(error.resource == nil)
        #expect(error.requestId == "4442587FB7D0A2F9")

        let moto = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error>
                <Code>SignatureDoesNotMatch</Code>
                <Message>The request signature we calculated does not match the signature you provided.</Message>
                <RequestID>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</RequestID>
            </Error>
            """
        let fromMoto = try S3ErrorResponse(xml: Array(moto.utf8))
        #expect(fromMoto.code == "SignatureDoesNotMatch")
        #expect(fromMoto.requestId == "7a62c49f-347e-4fc4-9331-6e8eEXAMPLE")
        #expect(fromMoto.description.hasPrefix("SignatureDoesNotMatch: The request signature"))
    }

    @Test func errorRoundTrip() throws {
        let error = S3ErrorResponse(
            code: "InvalidPart", message: "One or more of the specified parts could not be found: <1> & \"2\".",
            resource: "/files/2025/01/02/a.png", requestId: "r-1")
        #expect(!error.xml.contains("xmlns"))
        #expect(try S3ErrorResponse(xml: Array(error.xml.utf8)) == error)
        let bare = S3ErrorResponse(code: "AccessDenied", message: "")
        #expect(try S3ErrorResponse(xml: Array(bare.xml.utf8)) == bare)
        #expect(bare.description == "AccessDenied")
        #expect(Self.failure { _ = try S3ErrorResponse(xml: Array("<Error><Message>m</Message></Error>".utf8)) } == .missingElement)
    }

    /// Prefixed names decode like default-namespace ones.
    @Test func acceptsNamespacePrefixes() throws {
        let xml = """
            <s3:InitiateMultipartUploadResult xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/">
            <s3:Bucket>b</s3:Bucket><s3:Key>k</s3:Key><s3:UploadId>u</s3:UploadId>
            </s3:InitiateMultipartUploadResult>
            """
        #expect(try S3InitiateMultipartUploadResult(xml: Array(xml.utf8)) == .init(bucket: "b", key: "k", uploadId: "u"))
    }
}
