import BmobWire
import Testing
import BmobServerCodecs

/// Responses written by ``HTTPResponseEncoder``: status line, framing headers it owns, and bodies.
@Suite struct HTTPResponseEncoderTests {
    /// Encodes into a fresh buffer and returns the text.
    private func encode(
        _ head: HTTPResponseHead,
        body: String = "",
        keepAlive: Bool = true,
        date: String? = nil,
        omitBody: Bool = false
    ) -> String {
        var output: [UInt8] = []
        HTTPResponseEncoder.encode(
            head, body: bytes(body), keepAlive: keepAlive, date: date, omitBody: omitBody, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func completeResponse() {
        let head = HTTPResponseHead(status: .ok, headers: ["Content-Type": "application/json"])
        let text = encode(head, body: "{\"a\":1}", date: "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(
            text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Length: 7\r\n\r\n{\"a\":1}"
        )
    }

    @Test(arguments: [
        (HTTPStatus.ok, "HTTP/1.1 200 OK\r\n"),
        (.created, "HTTP/1.1 201 Created\r\n"),
        (.notFound, "HTTP/1.1 404 Not Found\r\n"),
        (.payloadTooLarge, "HTTP/1.1 413 Content Too Large\r\n"),
        (.httpVersionNotSupported, "HTTP/1.1 505 HTTP Version Not Supported\r\n"),
        (HTTPStatus(code: 299, reasonPhrase: "Custom Thing"), "HTTP/1.1 299 Custom Thing\r\n"),
        (HTTPStatus(code: 599), "HTTP/1.1 599 Status 599\r\n"),
    ])
    func statusLine(status: HTTPStatus, line: String) {
        #expect(encode(HTTPResponseHead(status: status)).hasPrefix(line))
    }

    @Test func contentLengthIsTheBodySize() {
        let text = encode(HTTPResponseHead(status: .ok), body: "\u{4F60}\u{597D}")
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n\u{4F60}\u{597D}")
        #expect(encode(HTTPResponseHead(status: .ok)) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    }

    @Test(arguments: [true, false])
    func connectionCloseOnlyWhenNotKeepingAlive(keepAlive: Bool) {
        let text = encode(HTTPResponseHead(status: .ok), body: "x", keepAlive: keepAlive)
        #expect(text.contains("Connection: close\r\n") == !keepAlive)
        #expect(text.hasSuffix("\r\n\r\nx"))
    }

    @Test func dateOnlyWhenGiven() {
        #expect(!encode(HTTPResponseHead(status: .ok)).contains("Date:"))
        #expect(encode(HTTPResponseHead(status: .ok), date: "D").contains("\r\nDate: D\r\n"))
    }

    @Test func framingFieldsInTheHeadAreIgnored() {
        let head = HTTPResponseHead(
            status: .ok,
            headers: [
                "content-length": "999", "Connection": "keep-alive", "TRANSFER-ENCODING": "chunked",
                "date": "yesterday", "X-Kept": "yes",
            ]
        )
        let text = encode(head, body: "abc", keepAlive: false, date: "today")
        #expect(
            text == "HTTP/1.1 200 OK\r\nX-Kept: yes\r\nDate: today\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
        )
    }

    @Test func fieldOrderAndRepeatsAreKept() {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Other", value: "o")
        headers.add(name: "Set-Cookie", value: "b=2")
        let text = encode(HTTPResponseHead(status: .ok, headers: headers))
        #expect(
            text == "HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nX-Other: o\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n")
    }

    @Test(arguments: [HTTPStatus.noContent, HTTPStatus(code: 304), .switchingProtocols, .continue])
    func statusesWithoutBodyHaveNoContentLengthOrBody(status: HTTPStatus) {
        let text = encode(HTTPResponseHead(status: status), body: "ignored")
        #expect(text == "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n\r\n")
    }

    @Test func omitBodyKeepsTheLengthOfTheBody() {
        let text = encode(HTTPResponseHead(status: .ok), body: "hello", omitBody: true)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
    }

    @Test func lineBreaksAreStrippedFromValues() {
        let head = HTTPResponseHead(status: .ok, headers: ["X-Name": "a\r\nSet-Cookie: evil=1\rb\nc"])
        let text = encode(head)
        #expect(text == "HTTP/1.1 200 OK\r\nX-Name: aSet-Cookie: evil=1bc\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func appendsAfterExistingOutput() {
        var output = bytes("previous")
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: .ok), body: bytes("x"), keepAlive: true, date: nil, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "previousHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx")
    }

    @Test func continueResponse() {
        #expect(HTTPResponseEncoder.continueResponse == bytes("HTTP/1.1 100 Continue\r\n\r\n"))
    }

    @Test func binaryBodyIsCopiedVerbatim() {
        let body: [UInt8] = (0...255).map { UInt8($0) }
        var output: [UInt8] = []
        HTTPResponseEncoder.encode(HTTPResponseHead(status: .ok), body: body, keepAlive: true, date: nil, into: &output)
        #expect(Array(output.suffix(256)) == body)
        #expect(
            String(decoding: output.dropLast(256), as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 256\r\n\r\n")
    }
}
