import BmobCrypto
import BmobWire
import Testing

/// ``SigV4Canonical``: S3's encoding rules, canonical forms of received requests, and `x-amz-date`.
@Suite struct SigV4CanonicalTests {
    @Test(arguments: [
        ("a b", false, "a%20b"),
        ("a+b", false, "a%2Bb"),
        ("100%", false, "100%25"),
        ("ключ", false, "%D0%BA%D0%BB%D1%8E%D1%87"),
        ("a/b", true, "a/b"),
        ("a/b", false, "a%2Fb"),
        ("A-z_0.9~", false, "A-z_0.9~"),
        ("=&?#$!'()*", false, "%3D%26%3F%23%24%21%27%28%29%2A"),
    ])
    func encodes(text: String, keepingSlash: Bool, expected: String) {
        #expect(SigV4Canonical.encode(text, keepingSlash: keepingSlash) == expected)
    }

    @Test func encodesPaths() {
        #expect(SigV4Canonical.encodePath("") == "/")
        #expect(SigV4Canonical.encodePath("/files/2025/01/02/a b.png") == "/files/2025/01/02/a%20b.png")
        #expect(SigV4Canonical.encodePath("files/交付.bin") == "/files/%E4%BA%A4%E4%BB%98.bin")
        // Not normalised: S3 keeps dots and double slashes.
        #expect(SigV4Canonical.encodePath("/a/../b//c") == "/a/../b//c")
    }

    @Test(arguments: [
        ("", "/"),
        ("/", "/"),
        ("/test$file.text", "/test%24file.text"),
        ("/test%24file.text", "/test%24file.text"),
        ("/test%24FILE%7e.text", "/test%24FILE~.text"),
        ("/a%2Fb/c", "/a%2Fb/c"),
        ("/a+b", "/a%2Bb"),
        ("/bad%zz%4", "/bad%25zz%254"),
        ("/%E4%BA%A4", "/%E4%BA%A4"),
        ("relative", "/relative"),
        ("/a//b/", "/a//b/"),
    ])
    func canonicalisesReceivedPaths(path: String, expected: String) {
        #expect(SigV4Canonical.canonicalURI(receivedPath: path) == expected)
    }

    @Test(arguments: [
        ("", ""),
        ("uploads", "uploads="),
        ("uploads=", "uploads="),
        ("partNumber=3&uploadId=abc", "partNumber=3&uploadId=abc"),
        ("uploadId=abc&partNumber=3", "partNumber=3&uploadId=abc"),
        ("b=2&a=x+y&a=%2B&c=", "a=%2B&a=x%20y&b=2&c="),
        ("a&&b", "a=&b="),
        ("k=a=b", "k=a%3Db"),
        ("prefix=a/b&max-keys=2", "max-keys=2&prefix=a%2Fb"),
        ("x=%7e", "x=~"),
    ])
    func canonicalisesReceivedQueries(query: String, expected: String) {
        #expect(SigV4Canonical.canonicalQuery(received: query) == expected)
    }

    @Test func sortsQueryByNameThenValueInByteOrder() {
        let items: [(name: String, value: String)] = [("b", "1"), ("a", "2"), ("a", "10"), ("B", "x"), ("a-b", "")]
        #expect(SigV4Canonical.canonicalQuery(items) == "B=x&a=10&a=2&a-b=&b=1")
    }

    @Test(arguments: [
        ("value", "value"),
        ("  value\t", "value"),
        ("a   b", "a b"),
        ("\"a  b  c\"", "\"a b c\""),
        ("a\t \tb", "a b"),
        ("", ""),
        ("   ", ""),
    ])
    func trimsHeaderValues(value: String, expected: String) {
        #expect(SigV4Canonical.canonicalHeaderValue(value) == expected)
    }

    @Test func canonicalHeadersNeedEverySignedName() {
        let headers: [(name: String, value: String)] = [("Host", "h"), ("X-A", "1"), ("x-a", " 2 ")]
        #expect(SigV4Canonical.canonicalHeaders(headers, signedHeaders: ["host", "x-a"]) == "host:h\nx-a:1,2\n")
        #expect(SigV4Canonical.canonicalHeaders(headers, signedHeaders: ["host", "x-b"]) == nil)
    }

    @Test func formatsAndParsesAmzDates() {
        #expect(SigV4Canonical.amzDate(secondsSince1970: 1_369_353_600) == "20130524T000000Z")
        #expect(SigV4Canonical.amzDate(secondsSince1970: 0) == "19700101T000000Z")
        #expect(SigV4Canonical.amzDate(secondsSince1970: 951_782_399) == "20000228T235959Z")
        #expect(SigV4Canonical.amzDate(secondsSince1970: -1) == "19691231T235959Z")
        #expect(SigV4Canonical.amzDate(secondsSince1970: .max) == "99991231T235959Z")
        #expect(SigV4Canonical.amzDate(secondsSince1970: .min) == "00000101T000000Z")
        for seconds: Int64 in [0, 1_369_353_600, 951_868_800, 4_102_444_799, -86_401] {
            #expect(SigV4Canonical.secondsSince1970(amzDate: SigV4Canonical.amzDate(secondsSince1970: seconds)) == seconds)
        }
    }

    @Test(arguments: [
        "", "20130524", "20130524T000000", "20130524T000000z", "20130524t000000Z", "2013-05-24T00:00:00Z",
        "20130230T000000Z", "20131324T000000Z", "20130524T240000Z", "20130524T006000Z", "20130524T000060Z",
        "2013052AT000000Z", "20130524T000000Z ", "+0130524T000000Z", "20130001T000000Z", "20130500T000000Z",
    ])
    func rejectsBadAmzDates(text: String) {
        #expect(SigV4Canonical.secondsSince1970(amzDate: text) == nil)
    }

    @Test func acceptsLeapDays() {
        #expect(SigV4Canonical.secondsSince1970(amzDate: "20240229T120000Z") != nil)
        #expect(SigV4Canonical.secondsSince1970(amzDate: "20230229T120000Z") == nil)
        #expect(SigV4Canonical.isScopeDate("20000229"))
        #expect(!SigV4Canonical.isScopeDate("19000229"))
    }

    /// The signing key of AWS's SigV4 documentation example (secret `wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY`,
    /// 2012-02-15, us-east-1, iam).
    @Test func derivesSigningKey() {
        let key = SigV4Canonical.signingKey(
            secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", date: "20120215", region: "us-east-1",
            service: "iam")
        #expect(Hex.encode(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }
}
