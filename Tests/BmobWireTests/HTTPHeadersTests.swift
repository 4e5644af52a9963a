import BmobWire
import Testing

/// ``HTTPHeaders``: ordered fields with case-insensitive lookups.
@Suite struct HTTPHeadersTests {
    @Test func lookupsIgnoreASCIICase() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.contains("x-a"))
        #expect(!headers.contains("X-B"))
        #expect(headers.count == 2)
    }

    @Test func replaceOrAddAndRemove() {
        var headers = HTTPHeaders([
            HTTPField(name: "A", value: "1"), HTTPField(name: "b", value: "2"), HTTPField(name: "a", value: "3"),
        ])
        #expect(headers.values(for: "A") == ["1", "3"])
        headers.replaceOrAdd(name: "A", value: "9")
        #expect(headers.values(for: "a") == ["9"])
        #expect(headers.map(\.name) == ["b", "A"])
        headers.remove(name: "B")
        #expect(headers.map(\.name) == ["A"])
    }

    @Test(arguments: [
        ("keep-alive, Upgrade", "upgrade", true),
        ("keep-alive,upgrade", "Upgrade", true),
        ("  close  ", "close", true),
        ("closed", "close", false),
        ("", "close", false),
    ])
    func containsToken(value: String, token: String, expected: Bool) {
        let headers: HTTPHeaders = ["Connection": value]
        #expect(headers.containsToken(token, in: "connection") == expected)
    }

    @Test(arguments: [("abc", "ABC", true), ("a-b", "A-B", true), ("ab", "abc", false), ("\u{E9}", "\u{C9}", false)])
    func namesEqual(lhs: String, rhs: String, expected: Bool) {
        #expect(HTTPHeaders.namesEqual(lhs, rhs) == expected)
    }
}
