import BmobWire
import Testing
import BmobServerCodecs

/// Malformed or oversized requests: each must fail with the status the server answers before closing.
@Suite struct HTTPRequestDecoderFailureTests {
    /// One rejected input and the status it must produce.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var status: HTTPStatus
        var limits = HTTPRequestDecoder.Limits()
        /// Passed to `setBodyLimit` after each head, when set.
        var bodyLimit: Int?

        var testDescription: String { "\(name) → \(status.code)" }
    }

    static let small = HTTPRequestDecoder.Limits(maxHeaderBytes: 64, maxHeaderCount: 4, maxBodyBytes: 8)
    static let chunkedHead = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"

    static let cases: [Case] = [
        // Framing.
        Case(
            name: "Content-Length and Transfer-Encoding",
            input: "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
            status: .badRequest),
        Case(
            name: "Transfer-Encoding before Content-Length",
            input: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", status: .badRequest),
        Case(name: "Content-Length 12a", input: "POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n", status: .badRequest),
        Case(name: "Content-Length -1", input: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", status: .badRequest),
        Case(name: "Content-Length empty", input: "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", status: .badRequest),
        Case(name: "Content-Length +5", input: "POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", status: .badRequest),
        Case(name: "Content-Length hex", input: "POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n", status: .badRequest),
        Case(
            name: "Content-Length with inner space", input: "POST / HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n",
            status: .badRequest),
        Case(
            name: "Content-Length empty list member", input: "POST / HTTP/1.1\r\nContent-Length: 3,\r\n\r\n",
            status: .badRequest),
        Case(
            name: "Content-Length too many digits",
            input: "POST / HTTP/1.1\r\nContent-Length: 9999999999999999999999\r\n\r\n", status: .badRequest),
        Case(
            name: "conflicting Content-Length fields",
            input: "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: .badRequest),
        Case(
            name: "conflicting Content-Length list", input: "POST / HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\n",
            status: .badRequest),
        Case(
            name: "Transfer-Encoding gzip", input: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            status: .notImplemented),
        Case(
            name: "Transfer-Encoding gzip, chunked",
            input: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: .notImplemented),
        Case(
            name: "Transfer-Encoding chunked, identity",
            input: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, identity\r\n\r\n", status: .badRequest),
        Case(
            name: "Transfer-Encoding chunked then identity field",
            input: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n",
            status: .badRequest),
        Case(
            name: "Transfer-Encoding in HTTP/1.0",
            input: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: .badRequest),

        // Size limits.
        Case(
            name: "header block over limit",
            input: "GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 60))\r\n\r\n",
            status: .requestHeaderFieldsTooLarge, limits: small),
        Case(
            name: "unfinished header block over limit",
            input: "GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 60))",
            status: .requestHeaderFieldsTooLarge, limits: small),
        Case(
            name: "request line over limit without newline",
            input: "GET /\(String(repeating: "a", count: 80))", status: .uriTooLong, limits: small),
        Case(
            name: "request line over limit with the head complete",
            input: "GET /\(String(repeating: "a", count: 80)) HTTP/1.1\r\n\r\n", status: .uriTooLong, limits: small),
        Case(
            name: "too many header fields",
            input: "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n",
            status: .requestHeaderFieldsTooLarge, limits: small),
        Case(
            name: "Content-Length over the limit set for the request",
            input: "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789", status: .payloadTooLarge, bodyLimit: 9),
        Case(
            name: "Content-Length over the default body limit",
            input: "POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n", status: .payloadTooLarge, limits: small),
        Case(
            name: "chunked body over the limit set for the request",
            input: chunkedHead + "4\r\nabcd\r\n4\r\nefgh\r\n1\r\ni\r\n0\r\n\r\n", status: .payloadTooLarge, bodyLimit: 8
        ),
        Case(
            name: "chunked body over the default body limit",
            input: chunkedHead + "9\r\n123456789\r\n0\r\n\r\n", status: .payloadTooLarge, limits: small),
        Case(
            name: "trailer fields over limit",
            input: chunkedHead + "1\r\na\r\n0\r\nX-T: \(String(repeating: "t", count: 70))\r\n\r\n",
            status: .requestHeaderFieldsTooLarge, limits: HTTPRequestDecoder.Limits(maxHeaderBytes: 64)),

        // Request line.
        Case(name: "HTTP/2.0", input: "GET / HTTP/2.0\r\n\r\n", status: .httpVersionNotSupported),
        Case(name: "HTTP/1.2", input: "GET / HTTP/1.2\r\n\r\n", status: .httpVersionNotSupported),
        Case(name: "HTTP/0.9", input: "GET / HTTP/0.9\r\n\r\n", status: .httpVersionNotSupported),
        Case(name: "garbage version", input: "GET / HTXP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "lowercase version", input: "GET / http/1.1\r\n\r\n", status: .badRequest),
        Case(name: "version with letters", input: "GET / HTTP/1.x\r\n\r\n", status: .badRequest),
        Case(name: "version too long", input: "GET / HTTP/1.10\r\n\r\n", status: .badRequest),
        Case(name: "missing version", input: "GET /\r\n\r\n", status: .badRequest),
        Case(name: "trailing space after version", input: "GET / HTTP/1.1 \r\n\r\n", status: .badRequest),
        Case(name: "empty method", input: " / HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "method with a non-token byte", input: "GE(T / HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "double space before target", input: "GET  / HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "space inside target", input: "GET /a b HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "tab inside target", input: "GET /a\tb HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "control byte inside target", input: "GET /a\u{01}b HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "DEL inside target", input: "GET /a\u{7F}b HTTP/1.1\r\n\r\n", status: .badRequest),
        Case(name: "target not starting with a slash", input: "GET index.html HTTP/1.1\r\n\r\n", status: .badRequest),

        // Header fields.
        Case(
            name: "obsolete line folding with space",
            input: "GET / HTTP/1.1\r\nX-A: one\r\n two\r\n\r\n", status: .badRequest),
        Case(
            name: "obsolete line folding with tab",
            input: "GET / HTTP/1.1\r\nX-A: one\r\n\ttwo\r\n\r\n", status: .badRequest),
        Case(name: "space before colon", input: "GET / HTTP/1.1\r\nHost : h\r\n\r\n", status: .badRequest),
        Case(name: "missing colon", input: "GET / HTTP/1.1\r\nHost\r\n\r\n", status: .badRequest),
        Case(name: "empty field name", input: "GET / HTTP/1.1\r\n: v\r\n\r\n", status: .badRequest),
        Case(name: "control character in value", input: "GET / HTTP/1.1\r\nX-A: a\u{01}b\r\n\r\n", status: .badRequest),
        Case(name: "NUL in value", input: "GET / HTTP/1.1\r\nX-A: a\u{00}b\r\n\r\n", status: .badRequest),
        Case(name: "DEL in value", input: "GET / HTTP/1.1\r\nX-A: a\u{7F}b\r\n\r\n", status: .badRequest),
        Case(name: "bare CR in value", input: "GET / HTTP/1.1\r\nX-A: a\rb\r\n\r\n", status: .badRequest),
        Case(name: "CR before CRLF", input: "GET / HTTP/1.1\r\nX-A: a\r\r\n\r\n", status: .badRequest),
        Case(name: "line of a lone CR", input: "GET / HTTP/1.1\r\nX-A: a\r\n\r\r\n\r\n", status: .badRequest),

        // Chunked body.
        Case(name: "chunk size not hex", input: chunkedHead + "zz\r\n", status: .badRequest),
        Case(name: "chunk size missing", input: chunkedHead + "\r\n", status: .badRequest),
        Case(
            name: "chunk size followed by junk", input: chunkedHead + "5 x\r\nhello\r\n0\r\n\r\n", status: .badRequest),
        Case(name: "chunk size negative", input: chunkedHead + "-5\r\n", status: .badRequest),
        Case(name: "chunk size too large", input: chunkedHead + "1000000000000000\r\n", status: .badRequest),
        Case(
            name: "chunk size line too long",
            input: chunkedHead + "1;" + String(repeating: "e", count: 5000) + "\r\n", status: .badRequest),
        Case(
            name: "chunk extension with bare CR", input: chunkedHead + "1;a\rb\r\nx\r\n0\r\n\r\n", status: .badRequest),
        Case(name: "chunk data not followed by CRLF", input: chunkedHead + "3\r\nabcX\r\n", status: .badRequest),
        Case(
            name: "chunk data followed by text then LF", input: chunkedHead + "3\r\nabcd\n0\r\n\r\n",
            status: .badRequest),
        Case(name: "malformed trailer field", input: chunkedHead + "0\r\nBad Trailer: x\r\n\r\n", status: .badRequest),

        // Expectations (RFC 9110 §10.1.1): 100-continue is the only one defined, any other is refused.
        Case(
            name: "Expect 200-ok with a body", input: "POST / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\nab",
            status: .expectationFailed),
        Case(name: "Expect 200-ok without a body", input: "GET / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n", status: .expectationFailed),
        Case(name: "empty Expect", input: "GET / HTTP/1.1\r\nExpect:\r\n\r\n", status: .expectationFailed),
        Case(
            name: "Expect list holding 100-continue",
            input: "POST / HTTP/1.1\r\nExpect: 100-continue, 200-ok\r\nContent-Length: 2\r\n\r\nab",
            status: .expectationFailed),
        Case(
            name: "second Expect field",
            input: "POST / HTTP/1.1\r\nExpect: 100-continue\r\nexpect: x-y\r\nContent-Length: 2\r\n\r\nab",
            status: .expectationFailed),
        Case(
            name: "Expect 100-continueX", input: "POST / HTTP/1.1\r\nExpect: 100-continueX\r\nContent-Length: 2\r\n\r\nab",
            status: .expectationFailed),
        Case(
            name: "Expect in HTTP/1.0", input: "POST / HTTP/1.0\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\nab",
            status: .expectationFailed),
    ]

    @Test(arguments: cases)
    func failsWithStatus(_ testCase: Case) {
        let result = decode(testCase.input, limits: testCase.limits, bodyLimit: testCase.bodyLimit)
        #expect(result.failure?.status == testCase.status, "\(result)")
        #expect(result.requests.allSatisfy { !$0.ended }, "no request completes before the failure")
    }

    /// A rejection does not depend on how reads cut the bytes either.
    @Test(arguments: cases)
    func failureIsTheSameForEverySplit(_ testCase: Case) {
        let input = bytes(testCase.input)
        let whole = decode([input], limits: testCase.limits, bodyLimit: testCase.bodyLimit)
        for (position, pieces) in twoPieceSplits(of: input).enumerated() {
            let split = decode(pieces, limits: testCase.limits, bodyLimit: testCase.bodyLimit)
            #expect(split == whole, "split at byte \(position)")
        }
        #expect(decode(byteByByte(input), limits: testCase.limits, bodyLimit: testCase.bodyLimit) == whole)
    }

    /// Trailer sections around the size limit (fields and the final empty line count, as in a head).
    @Test(arguments: 54...62)
    func trailerLimitIsTheSameForEverySplit(valueLength: Int) {
        let limits = HTTPRequestDecoder.Limits(maxHeaderBytes: 64)
        let trailer = "X-T: \(String(repeating: "t", count: valueLength))\r\n\r\n"
        let input = bytes(Self.chunkedHead + "1\r\na\r\n0\r\n" + trailer)
        let whole = decode([input], limits: limits)
        if trailer.utf8.count > 64 {
            #expect(whole.failure?.status == .requestHeaderFieldsTooLarge)
        } else {
            #expect(whole.failure == nil)
            #expect(whole.requests.first?.ended == true)
        }
        for (position, pieces) in twoPieceSplits(of: input).enumerated() {
            #expect(decode(pieces, limits: limits) == whole, "split at byte \(position)")
        }
    }

    @Test func bodyLimitFailureComesRightAfterTheHead() {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n"))
        guard case .head = decoder.next() else {
            Issue.record("expected a head")
            return
        }
        decoder.setBodyLimit(99)
        guard case .failure(let error) = decoder.next() else {
            Issue.record("expected a failure before any body byte")
            return
        }
        #expect(error.status == .payloadTooLarge)
    }

    @Test func failureRepeatsForeverAndIgnoresNewBytes() {
        var decoder = HTTPRequestDecoder()
        decoder.append(bytes("GET / HTTP/9.9\r\n\r\n"))
        let first = decoder.next()
        guard case .failure(let error) = first else {
            Issue.record("expected a failure, got \(String(describing: first))")
            return
        }
        #expect(error.status == .httpVersionNotSupported)
        #expect(error.description.hasPrefix("505: "))
        for _ in 0..<5 {
            decoder.append(bytes("GET / HTTP/1.1\r\n\r\n"))
            #expect(decoder.next() == first)
        }
    }

    @Test func requestsBeforeTheBadOneAreDelivered() {
        let result = decode("GET /ok HTTP/1.1\r\n\r\nGET /bad HTTP/1.1\r\nX : y\r\n\r\nGET /never HTTP/1.1\r\n\r\n")
        #expect(result.requests.map(\.head.target) == ["/ok"])
        #expect(result.requests.first?.ended == true)
        #expect(result.failure?.status == .badRequest)
    }

    /// A request with an unsupported expectation fails at its head: its body and what follows are never
    /// decoded as requests, while the requests before it are delivered whole.
    @Test func unsupportedExpectationFailsAtItsHeadAfterThePipelinedRequestsBeforeIt() {
        let result = decode(
            "GET /ok HTTP/1.1\r\n\r\nPOST /bad HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 20\r\n\r\n"
                + "GET /smuggled HTTP/1.1\r\n\r\nGET /never HTTP/1.1\r\n\r\n")
        #expect(result.requests.map(\.head.target) == ["/ok"])
        #expect(result.requests.first?.ended == true)
        #expect(result.failure?.status == .expectationFailed)
        #expect(result.failure?.status.description == "417 Expectation Failed")
    }
}
