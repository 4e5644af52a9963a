import BmobWire
import Testing

/// ``JSONParser`` on valid and invalid documents.
@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("-17", .int(-17)),
        ("1.5", .double(1.5)),
        ("-0.25", .double(-0.25)),
        ("1e3", .double(1000)),
        ("2E-2", .double(0.02)),
        ("1.0", .double(1)),
        ("\"text\"", .string("text")),
        ("\"\"", .string("")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n[1, \"a\", null] \n", .array([.int(1), .string("a"), .null])),
        (
            "{\"a\": {\"b\": [true, {\"c\": 1.5}]}, \"d\": -3}",
            .object(["a": .object(["b": .array([.bool(true), .object(["c": .double(1.5)])])]), "d": .int(-3)])
        ),
    ])
    func valueKinds(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test func parsesBytesCollections() throws {
        let bytes: ArraySlice<UInt8> = Array("xx[1]".utf8)[2...]
        #expect(try JSONParser.parse(bytes) == .array([.int(1)]))
    }

    @Test func int64RangeStaysInteger() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(.min))
        // 18 digits are summed directly, 19 go through the checked conversion.
        #expect(try JSONParser.parse("999999999999999999") == .int(999_999_999_999_999_999))
        #expect(try JSONParser.parse("-999999999999999999") == .int(-999_999_999_999_999_999))
        #expect(try JSONParser.parse("1000000000000000000") == .int(1_000_000_000_000_000_000))
        #expect(try JSONParser.parse("[0,-7,42]") == [.int(0), .int(-7), .int(42)])
    }

    @Test func int64OverflowBecomesDouble() throws {
        #expect(try JSONParser.parse("9223372036854775808") == .double(0x1p63))
        #expect(try JSONParser.parse("-9223372036854775809") == .double(-0x1p63))
        #expect(try JSONParser.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func laterDuplicateKeyWins() throws {
        #expect(try JSONParser.parse("{\"a\":1,\"a\":2}") == .object(["a": .int(2)]))
    }

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u4F60""#, "A\u{E9}\u{4F60}"),
        (#""\u0000""#, "\u{0}"),
        (#""\ud83d\ude00""#, "\u{1F600}"),
        (#""a\uD834\uDD1Eb""#, "a\u{1D11E}b"),
        (#""caf\u00e9 and raw é 😀""#, "caf\u{E9} and raw \u{E9} \u{1F600}"),
        ("\"\u{7F}\"", "\u{7F}"),
    ])
    func stringEscapes(text: String, expected: String) throws {
        #expect(try JSONParser.parse(text) == .string(expected))
    }

    @Test(arguments: [
        "", " ", "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{'a':1}",
        "[1", "{\"a\":1", "\"unterminated", "\"bad escape \\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\",
        "\"\\ud800\"", "\"\\ud800x\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "\"\\ud800\\ud800\"",
        "\"a\u{01}b\"", "\"tab\there\"", "\"line\nbreak\"", "\"\\n\u{1F}\"",
        "01", "-01", "00", "-", "-a", "+1", ".5", "1.", "1.e3", "1e", "1e+", "--1", "0x10",
        "NaN", "Infinity", "-Infinity", "nul", "tru", "falsey", "True", "1e400", "-1e400",
        "[1]]", "{} {}", "1 2", "null x", "[]x",
    ])
    func invalidDocumentsAreRejected(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // byte that never appears in UTF-8
            [0x22, 0xC3, 0x22],  // truncated two-byte sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong encoding of "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate
            [0x22, 0x5C, 0x6E, 0xE2, 0x82, 0x22],  // truncated sequence after an escape (slow path)
            [0x5B, 0x80, 0x5D],  // stray continuation byte outside a string
        ] as [[UInt8]])
    func invalidUTF8IsRejected(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test func errorsCarryTheOffset() {
        let trailing = #expect(throws: JSONParseError.self) { try JSONParser.parse("[1] x") }
        #expect(trailing?.offset == 4)
        #expect(trailing?.message == "unexpected data after the JSON value")
        do {
            _ = try JSONParser.parse("{\"a\": [1, 2,]}")
            Issue.record("expected a failure")
        } catch {
            #expect(error.offset == 12)
            #expect(error.description.hasSuffix("at byte 12"))
        }
    }

    @Test func nestingUpToTheMaximumDepthIsAccepted() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(text)
        var levels = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test(arguments: [JSONParser.maximumDepth + 1, 10_000, 1_000_000])
    func deeperNestingIsRejectedWithoutCrashing(depth: Int) {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(arrays) }
        let objects = String(repeating: "{\"k\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(objects) }
        let unterminated = String(repeating: "[", count: depth)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(unterminated) }
    }
}
