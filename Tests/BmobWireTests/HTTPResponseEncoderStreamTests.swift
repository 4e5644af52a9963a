import BmobWire
import Testing
import BmobServerCodecs

/// Heads of streamed responses and chunked framing from ``HTTPResponseEncoder``.
@Suite struct HTTPResponseEncoderStreamTests {
    private func head(
        _ status: HTTPStatus = .ok, framing: HTTPBodyFraming, keepAlive: Bool = true, headers: HTTPHeaders = [:]
    ) -> String {
        var output: [UInt8] = []
        HTTPResponseEncoder.encodeHead(
            HTTPResponseHead(status: status, headers: headers), framing: framing, keepAlive: keepAlive, date: nil,
            into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func headsAnnounceTheirFraming() {
        #expect(head(framing: .length(42)) == "HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n")
        #expect(head(framing: .chunked) == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(head(framing: .untilClose, keepAlive: false) == "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
    }

    @Test func theEncoderOwnsTheFramingFields() {
        let headers: HTTPHeaders = [
            "Content-Length": "1", "Transfer-Encoding": "gzip", "Content-Range": "bytes 0-9/20",
        ]
        #expect(
            head(.partialContent, framing: .length(10), headers: headers)
                == "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/20\r\nContent-Length: 10\r\n\r\n")
    }

    @Test func statusesWithoutABodyGetNoFraming() {
        #expect(head(.noContent, framing: .chunked) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(!HTTPStatus(code: 304).permitsBody)
        #expect(HTTPStatus.rangeNotSatisfiable.permitsBody)
    }

    @Test func chunksCarryTheirSizeInHex() {
        var output: [UInt8] = []
        let piece = [UInt8](repeating: 0x61, count: 300)
        piece.withUnsafeBytes { HTTPResponseEncoder.appendChunk($0, to: &output) }
        [UInt8]().withUnsafeBytes { HTTPResponseEncoder.appendChunk($0, to: &output) }
        output += HTTPResponseEncoder.lastChunk
        #expect(
            String(decoding: output, as: UTF8.self) == "12c\r\n" + String(repeating: "a", count: 300) + "\r\n0\r\n\r\n")
    }

    @Test func chunkedBodiesDecodeBackWithTheRequestDecoder() throws {
        // The same framing read by our own chunked decoder, as a request body.
        var output = Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for size in [1, 15, 16, 4095, 65536] {
            [UInt8](repeating: 0x62, count: size).withUnsafeBytes { HTTPResponseEncoder.appendChunk($0, to: &output) }
        }
        output += HTTPResponseEncoder.lastChunk
        var decoder = HTTPRequestDecoder(limits: .init(maxBodyBytes: 1 << 20))
        decoder.append(output)
        var body = 0
        var ended = false
        while let event = decoder.next() {
            switch event {
            case .body(let bytes): body += bytes.count
            case .end: ended = true
            case .failure(let error): Issue.record("\(error)")
            case .head: break
            }
            if ended { break }
        }
        #expect(ended)
        #expect(body == 1 + 15 + 16 + 4095 + 65536)
    }
}
