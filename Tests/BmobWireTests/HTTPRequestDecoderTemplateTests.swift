import BmobWire
import Testing
import BmobServerCodecs

/// The decoder reuses the previous request's fields for header lines that repeat byte for byte
/// (`HeadTemplate`). Whatever a connection sends, each head must come out as a fresh decoder parses it.
@Suite struct HTTPRequestDecoderTemplateTests {
    static let lines = [
        "Host: 127.0.0.1:8080", "host: 127.0.0.1:8080", "Host: 127.0.0.1:8081",
        "X-Bmob-Application-Id: benchapp", "X-Bmob-Application-Id: otherapp",
        "X-Bmob-REST-API-Key: benchkey", "Content-Type: application/json", "Content-Type: text/plain",
        "Content-Length: 5", "Content-Length: 12", "Accept: */*", "X-Long-Header: " + String(repeating: "v", count: 40),
        "X-Empty:", "X-Spaces:   padded value   ",
    ]

    /// One request: a method line, some header lines (CRLF or bare LF endings) and the body `Content-Length` asks for.
    static func request(_ generator: inout SplitMix64) -> [UInt8] {
        var text = "POST /1/classes/T HTTP/1.1\r\n"
        var length = 0
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let line = lines.randomElement(using: &generator)!
            if line.hasPrefix("Content-Length") {
                if length != 0 { continue }  // one length per request
                length = Int(line.split(separator: " ")[1])!
            }
            text += line + (Bool.random(using: &generator) ? "\r\n" : "\n")
        }
        text += "\r\n" + String(repeating: "b", count: length)
        return Array(text.utf8)
    }

    /// The events a decoder gives for `bytes`, until it has nothing more.
    static func events(_ decoder: inout HTTPRequestDecoder, _ bytes: [UInt8]) -> [HTTPRequestDecoder.Event] {
        decoder.append(bytes)
        var events: [HTTPRequestDecoder.Event] = []
        while let event = decoder.next() { events.append(event) }
        return events
    }

    @Test("a connection's heads equal fresh parses, however its header lines repeat", arguments: [UInt64(1), 2, 3, 4, 5])
    func sameHeadsAsAFreshDecoder(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var connection = HTTPRequestDecoder()
        for index in 0..<200 {
            let bytes = Self.request(&generator)
            var fresh = HTTPRequestDecoder()
            let expected = Self.events(&fresh, bytes)
            let got = Self.events(&connection, bytes)
            #expect(got == expected, "request \(index) of seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            guard case .head(let head)? = got.first else {
                Issue.record("no head for request \(index)")
                return
            }
            // Names keep the client's spelling and values are trimmed, as for any parse.
            for field in head.headers {
                #expect(field.value == field.value.trimmingCharacters(in: " "))
            }
        }
    }

    @Test("a repeated line after a changed one is still taken from the previous request, in position")
    func changedLineKeepsLaterLinesAligned() {
        var decoder = HTTPRequestDecoder()
        let first = "GET / HTTP/1.1\r\nHost: a\r\nX-Bmob-Application-Id: one\r\nAccept: */*\r\n\r\n"
        let second = "GET / HTTP/1.1\r\nHost: a\r\nX-Bmob-Application-Id: two-longer\r\nAccept: */*\r\n\r\n"
        _ = Self.events(&decoder, Array(first.utf8))
        guard case .head(let head)? = Self.events(&decoder, Array(second.utf8)).first else {
            Issue.record("no head")
            return
        }
        #expect(head.headers["X-Bmob-Application-Id"] == "two-longer")
        #expect(head.headers["Accept"] == "*/*")
        #expect(head.headers["Host"] == "a")
        #expect(head.headers.count == 3)
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
