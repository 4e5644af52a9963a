import BmobWire
import Testing
import BmobServerCodecs

/// Well-formed requests through ``HTTPRequestDecoder``: framing, pipelining, and independence from how the
/// bytes are split across reads.
@Suite struct HTTPRequestDecoderTests {
    @Test func simpleGet() {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("GET /1/classes/GameScore HTTP/1.1\r\nHost: api.example.com\r\nAccept: */*\r\n\r\n"))
        let event = decoder.next()
        guard case .head(let head) = event else {
            Issue.record("expected a head, got \(String(describing: event))")
            return
        }
        #expect(head.method == .get)
        #expect(head.target == "/1/classes/GameScore")
        #expect(head.version == .http1_1)
        #expect(head.headers.count == 2)
        #expect(head.headers["Host"] == "api.example.com")
        #expect(head.contentLength == nil)
        #expect(head.isChunked == false)
        #expect(head.hasBody == false)
        #expect(decoder.next() == .end)
        #expect(decoder.next() == nil)
        #expect(decoder.isIdle)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func nothingHappensUntilTheHeadIsComplete() {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("GET / HTTP/1.1\r\nHost: x\r\n"))
        #expect(decoder.next() == nil)
        #expect(decoder.isIdle == false)
        decoder.append(bytes("\r\n"))
        let event = decoder.next()
        guard case .head(let head) = event else {
            Issue.record("expected a head, got \(String(describing: event))")
            return
        }
        #expect(head.headers["Host"] == "x")
        #expect(decoder.next() == .end)
    }

    @Test(arguments: ["host", "HOST", "Host", "hOsT"])
    func headerLookupIgnoresCase(name: String) {
        let result = decode("GET / HTTP/1.1\r\nHoSt: example.com\r\nX-Multi: a\r\nx-multi: b\r\n\r\n")
        let head = result.requests[0].head
        #expect(head.headers[name] == "example.com")
        #expect(head.headers.contains(name))
        #expect(head.headers.values(for: "X-MULTI") == ["a", "b"])
        #expect(head.headers["Missing"] == nil)
    }

    @Test func headerValuesAreTrimmedOfSpacesAndTabs() {
        let result = decode("GET / HTTP/1.1\r\nA:   spaced out \t \r\nB:\r\nC:\tx\r\n\r\n")
        let headers = result.requests[0].head.headers
        #expect(headers["A"] == "spaced out")
        #expect(headers["B"] == "")
        #expect(headers["C"] == "x")
        #expect(headers.map(\.name) == ["A", "B", "C"])
    }

    @Test func postWithContentLength() {
        let result = decode("POST /1/classes/Note HTTP/1.1\r\nContent-Length: 13\r\n\r\n{\"a\":\"hello\"}")
        #expect(result.failure == nil)
        #expect(result.requests.count == 1)
        #expect(result.requests[0].head.method == .post)
        #expect(result.requests[0].head.contentLength == 13)
        #expect(result.requests[0].head.hasBody)
        #expect(result.requests[0].body == bytes("{\"a\":\"hello\"}"))
        #expect(result.requests[0].ended)
    }

    @Test func bodyArrivesInPiecesAsBytesCome() {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("PUT /x HTTP/1.1\r\nContent-Length: 6\r\n\r\nabc"))
        guard case .head = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        #expect(decoder.next() == .body(bytes("abc")))
        #expect(decoder.next() == nil)
        decoder.append(bytes("defGET"))
        #expect(decoder.next() == .body(bytes("def")))
        #expect(decoder.next() == .end)
        #expect(decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 3)
    }

    @Test func zeroContentLengthHasNoBody() {
        let result = decode("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        #expect(result.requests.count == 1)
        #expect(result.requests[0].head.contentLength == 0)
        #expect(result.requests[0].head.hasBody == false)
        #expect(result.requests[0].body.isEmpty)
        #expect(result.requests[0].ended)
    }

    @Test func identicalRepeatedContentLengthsAreAccepted() {
        let result = decode("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc")
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.contentLength == 3)
        #expect(result.requests.first?.body == bytes("abc"))
    }

    /// Requests whose decoding must not depend on where reads split the bytes.
    static let splitSamples: [String] = [
        "POST /1/classes/Note?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world",
        "POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
        "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /c HTTP/1.0\r\n\r\n",
        "\r\n\r\nGET /lf HTTP/1.1\nHost: h\n\n",
        "GET /bad HTTP/1.1\r\nHost : h\r\n\r\n",
        "POST /cut HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
    ]

    @Test(arguments: splitSamples)
    func everyTwoPieceSplitDecodesTheSame(sample: String) {
        let input = bytes(sample)
        let whole = decode([input])
        #expect(!whole.requests.isEmpty || whole.failure != nil)
        for (position, pieces) in twoPieceSplits(of: input).enumerated() {
            let split = decode(pieces)
            #expect(split == whole, "split at byte \(position)")
        }
    }

    @Test(arguments: splitSamples)
    func byteByByteDecodesTheSame(sample: String) {
        let input = bytes(sample)
        #expect(decode(byteByByte(input)) == decode([input]))
    }

    @Test func splitPostKeepsHeadAndBody() {
        let input = bytes(Self.splitSamples[0])
        for pieces in twoPieceSplits(of: input) + [byteByByte(input)] {
            let result = decode(pieces)
            #expect(result.failure == nil)
            #expect(result.requests.count == 1)
            #expect(result.requests.first?.head.target == "/1/classes/Note?x=1")
            #expect(result.requests.first?.head.headers["Host"] == "h")
            #expect(result.requests.first?.body == bytes("hello world"))
            #expect(result.requests.first?.ended == true)
        }
    }

    @Test func pipelinedRequestsInOneBuffer() {
        let result = decode(Self.splitSamples[2])
        #expect(result.failure == nil)
        #expect(result.requests.map(\.head.target) == ["/a", "/b", "/c"])
        #expect(result.requests.map(\.head.method) == [.get, .post, .get])
        #expect(result.requests.map(\.head.version) == [.http1_1, .http1_1, .http1_0])
        #expect(result.requests.map(\.body) == [[], bytes("hi"), []])
        #expect(result.requests.allSatisfy { $0.ended })
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() {
        let result = decode(Self.splitSamples[1])
        #expect(result.failure == nil)
        #expect(result.requests.count == 1)
        let head = result.requests[0].head
        #expect(head.isChunked)
        #expect(head.contentLength == nil)
        #expect(head.hasBody)
        #expect(result.requests[0].body == bytes("hello world"))
        #expect(result.requests[0].ended)
    }

    @Test func chunkedSizesAreHexAndMayCarryWhitespaceBeforeExtensions() {
        let body = String(repeating: "z", count: 26)
        let result = decode(
            "POST / HTTP/1.1\r\nTransfer-Encoding: identity, Chunked\r\n\r\n1A \t; name=\"v\"\r\n\(body)\r\n0\r\n\r\n"
        )
        #expect(result.failure == nil)
        #expect(result.requests.first?.body == bytes(body))
        #expect(result.requests.first?.ended == true)
    }

    @Test func chunkedFollowedByPipelinedRequest() {
        let result = decode(
            "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\nDELETE /b HTTP/1.1\r\n\r\n"
        )
        #expect(result.failure == nil)
        #expect(result.requests.map(\.head.method) == [.post, .delete])
        #expect(result.requests.map(\.body) == [bytes("hi"), []])
    }

    @Test func lfOnlyLineEndings() {
        let result = decode("POST /lf HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n3\nabc\n0\nT: 1\n\n")
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.headers["Host"] == "h")
        #expect(result.requests.first?.body == bytes("abc"))
        #expect(result.requests.first?.ended == true)
    }

    @Test func leadingEmptyLinesBeforeTheRequestLineAreIgnored() {
        let result = decode("\r\n\n\r\nGET /after HTTP/1.1\r\n\r\n")
        #expect(result.failure == nil)
        #expect(result.requests.map(\.head.target) == ["/after"])
    }

    @Test func emptyLinesAfterABodyAreIgnored() {
        let result = decode("POST /a HTTP/1.1\r\nContent-Length: 1\r\n\r\nx\r\nGET /b HTTP/1.1\r\n\r\n")
        #expect(result.failure == nil)
        #expect(result.requests.map(\.head.target) == ["/a", "/b"])
    }

    @Test func headMethod() {
        let result = decode("HEAD /file HTTP/1.1\r\n\r\n")
        #expect(result.requests.first?.head.method == .head)
        #expect(result.requests.first?.ended == true)
    }

    @Test(arguments: [
        ("GET", HTTPMethod.get), ("PUT", .put), ("POST", .post), ("HEAD", .head), ("DELETE", .delete),
        ("PATCH", .patch), ("OPTIONS", .options), ("PROPFIND", HTTPMethod(rawValue: "PROPFIND")),
        ("get", HTTPMethod(rawValue: "get")),
    ])
    func methodsAreTokens(text: String, method: HTTPMethod) {
        let result = decode("\(text) / HTTP/1.1\r\n\r\n")
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.method == method)
    }

    @Test func targetIsKeptRaw() {
        let target = "/1/classes/Note?where=%7B%22a%22%3A1%7D&name=caf\u{E9}+ok"
        let result = decode("GET \(target) HTTP/1.1\r\n\r\n")
        #expect(result.failure == nil)
        let head = result.requests[0].head
        #expect(head.target == target)
        #expect(head.path == "/1/classes/Note")
        #expect(head.query == "where=%7B%22a%22%3A1%7D&name=caf\u{E9}+ok")
    }

    @Test(arguments: [
        ("/plain", "/plain", ""),
        ("/p?", "/p", ""),
        ("/p?a=1?b=2", "/p", "a=1?b=2"),
        ("/\u{4F60}\u{597D}?q=\u{597D}", "/\u{4F60}\u{597D}", "q=\u{597D}"),
        ("*", "*", ""),
        ("http://example.com/x?y", "http://example.com/x", "y"),
    ])
    func pathAndQuery(target: String, path: String, query: String) {
        let result = decode("OPTIONS \(target) HTTP/1.1\r\n\r\n")
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.path == path[...])
        #expect(result.requests.first?.head.query == query[...])
    }

    @Test(arguments: [
        ("HTTP/1.1", "", true),
        ("HTTP/1.1", "Connection: close\r\n", false),
        ("HTTP/1.1", "Connection: Upgrade, CLOSE\r\n", false),
        ("HTTP/1.1", "Connection: keep-alive\r\n", true),
        ("HTTP/1.1", "Connection: closed\r\n", true),
        ("HTTP/1.0", "", false),
        ("HTTP/1.0", "Connection: Keep-Alive\r\n", true),
        ("HTTP/1.0", "Connection: foo,  keep-alive \r\n", true),
        ("HTTP/1.0", "Connection: close\r\n", false),
    ])
    func keepAlive(version: String, headers: String, expected: Bool) {
        let result = decode("GET / \(version)\r\n\(headers)\r\n")
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.keepAlive == expected)
    }

    @Test(arguments: [
        ("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", true),
        ("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nTransfer-Encoding: chunked\r\n\r\n", true),
        ("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", false),
        ("POST / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n", false),
        ("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n", false),
        ("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nExpect:  100-CONTINUE \r\n\r\n", false),
    ])
    func expectsContinue(request: String, expected: Bool) {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes(request))
        guard case .head(let head) = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        #expect(head.expectsContinue == expected)
    }

    @Test func bodyLimitAppliesOnlyToTheRequestItWasSetFor() {
        var decoder = HTTPRequestDecoder(limits: HTTPRequestDecoder.Limits(maxBodyBytes: 4))
        decoder.append(
            bytes(
                "POST /a HTTP/1.1\r\nContent-Length: 6\r\n\r\nabcdefPOST /b HTTP/1.1\r\nContent-Length: 4\r\n\r\nwxyz"))
        guard case .head = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        decoder.setBodyLimit(10)
        #expect(decoder.next() == .body(bytes("abcdef")))
        #expect(decoder.next() == .end)
        guard case .head = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        #expect(decoder.next() == .body(bytes("wxyz")))
        #expect(decoder.next() == .end)
    }

    @Test func bodiesAtExactlyTheLimitAreAccepted() {
        let fixed = decode("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcde", bodyLimit: 5)
        #expect(fixed.failure == nil)
        #expect(fixed.requests.first?.body == bytes("abcde"))
        let chunked = decode(
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n3\r\ncde\r\n0\r\n\r\n",
            bodyLimit: 5
        )
        #expect(chunked.failure == nil)
        #expect(chunked.requests.first?.body == bytes("abcde"))
    }

    @Test func headersAtExactlyTheLimitsAreAccepted() {
        let request = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n"
        let limits = HTTPRequestDecoder.Limits(maxHeaderBytes: request.utf8.count, maxHeaderCount: 2)
        let result = decode(request, limits: limits)
        #expect(result.failure == nil)
        #expect(result.requests.first?.head.headers.count == 2)
    }

    @Test func largeBodyDeliveredInManyReads() {
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("POST / HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n"))
        guard case .head = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        var received: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + 4093, body.count)
            decoder.append(Array(body[offset..<end]))
            offset = end
            while let event = decoder.next() {
                if case .body(let piece) = event { received += piece } else { #expect(event == .end) }
            }
        }
        #expect(received == body)
        #expect(decoder.isIdle)
    }

    @Test func appendAcceptsRawBuffers() {
        var decoder = HTTPRequestDecoder()
        bytes("DELETE /x HTTP/1.1\r\n\r\n").withUnsafeBytes { decoder.append($0) }
        guard case .head(let head) = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        #expect(head.method == .delete)
        #expect(decoder.next() == .end)
    }
}
