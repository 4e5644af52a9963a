import BmobWire
import Testing

/// Compact JSON output from ``JSONValue``.
@Suite struct JSONEncodingTests {
    @Test(arguments: [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.int(-42), "-42"),
        (.int(.min), "-9223372036854775808"),
        (.string("hi"), "\"hi\""),
        (.array([]), "[]"),
        (.object([:]), "{}"),
        (.array([.int(1), .null, .string("x")]), "[1,null,\"x\"]"),
    ])
    func scalarsAndContainers(value: JSONValue, text: String) {
        #expect(value.jsonString == text)
        #expect(value.jsonBytes == Array(text.utf8))
    }

    @Test func objectKeysAreSorted() {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "C": "c", "aa": []]
        #expect(value.jsonString == #"{"C":"c","a":{"y":null,"z":true},"aa":[],"b":1}"#)
    }

    @Test(arguments: [
        (3.0, "3"),
        (-3.0, "-3"),
        (0.0, "0"),
        (-0.0, "0"),
        (1_700_000_000_000.0, "1700000000000"),
        (9_007_199_254_740_991.0, "9007199254740991"),
        (0.5, "0.5"),
        (-1.25, "-1.25"),
        (0.1, "0.1"),
        (1e300, "1e+300"),
        (.leastNonzeroMagnitude, "5e-324"),
    ])
    func doubles(value: Double, text: String) {
        #expect(JSONValue.double(value).jsonString == text)
    }

    @Test func largeIntegralDoublesStayValidJSON() throws {
        let value = JSONValue.double(1e20)
        #expect(try JSONParser.parse(value.jsonString) == value)
    }

    @Test(arguments: [Double.infinity, -Double.infinity, Double.nan, Double.signalingNaN])
    func nonFiniteDoublesAreNull(value: Double) {
        #expect(JSONValue.double(value).jsonString == "null")
        #expect(JSONValue.array([.double(value)]).jsonString == "[null]")
    }

    @Test(arguments: [
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),
        ("line\nfeed\rreturn\ttab", #""line\nfeed\rreturn\ttab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1F}", #""\u0000\u0001\u0008\u000c\u001f""#),
        ("\u{7F}\u{E9}\u{1F600}", "\"\u{7F}\u{E9}\u{1F600}\""),
    ])
    func stringEscaping(string: String, text: String) throws {
        #expect(JSONValue.string(string).jsonString == text)
        #expect(try JSONParser.parse(text) == .string(string))
    }

    @Test func keysAreEscapedToo() {
        let value: JSONValue = ["a\"b": 1, "c\nd": 2]
        #expect(value.jsonString == #"{"a\"b":1,"c\nd":2}"#)
    }

    @Test func appendJSONAppends() {
        var output = Array("prefix:".utf8)
        JSONValue.array([1, 2]).appendJSON(to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix:[1,2]")
    }
}
