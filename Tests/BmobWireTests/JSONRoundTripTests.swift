import BmobWire
import Testing

/// Property: encoding any value and parsing the text gives the value back (up to number kind).
@Suite struct JSONRoundTripTests {
    /// Scalars strings are drawn from: plain ASCII, characters that need escaping, multi-byte UTF-8, and
    /// scalars outside the Basic Multilingual Plane (surrogate pairs when escaped).
    static let scalars: [Unicode.Scalar] =
        Array("abcXYZ019 _-:,{}[]".unicodeScalars) + [
            "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
        ]
        + ["\u{E9}", "\u{3A9}", "\u{4F60}", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{1F600}", "\u{10FFFF}", "\u{301}"]

    static func randomString(_ generator: inout SplitMix64) -> String {
        var string = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            string.append(scalars.randomElement(using: &generator)!)
        }
        return String(string)
    }

    static func randomDouble(_ generator: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return Double.random(in: -1...1, using: &generator)
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 8
        case 2:
            return [0.0, -0.0, 1e20, -1e300, .leastNonzeroMagnitude, 9_007_199_254_740_992, .greatestFiniteMagnitude]
                .randomElement(using: &generator)!
        default:
            while true {
                let value = Double(bitPattern: generator.next())
                if value.isFinite { return value }
            }
        }
    }

    static func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 5 : 7
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let special: [Int64] = [0, -1, .max, .min]
            return .int(
                Bool.random(using: &generator)
                    ? special.randomElement(using: &generator)! : Int64(bitPattern: generator.next()))
        case 3: return .double(randomDouble(&generator))
        case 4: return .string(randomString(&generator))
        case 5:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                members[randomString(&generator)] = randomValue(&generator, depth: depth + 1)
            }
            return .object(members)
        }
    }

    /// What parsing the encoding of `value` must produce: integral doubles below 2^53 are written as integers.
    static func expectedAfterRoundTrip(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number == number.rounded() && abs(number) < 9_007_199_254_740_992:
            return .int(Int64(number))
        case .array(let elements):
            return .array(elements.map(expectedAfterRoundTrip))
        case .object(let members):
            return .object(members.mapValues(expectedAfterRoundTrip))
        default:
            return value
        }
    }

    @Test(arguments: [1, 2, 3, 0xB0B] as [UInt64])
    func encodeThenParseGivesTheValueBack(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for index in 0..<100 {
            let value = Self.randomValue(&generator)
            let text = value.jsonString
            let parsed = try JSONParser.parse(text)
            #expect(parsed == Self.expectedAfterRoundTrip(value), "value \(index) of seed \(seed): \(text)")
            #expect(parsed.jsonString == text, "encoding is stable")
        }
    }

    @Test func generatorIsDeterministic() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        #expect(Self.randomValue(&first) == Self.randomValue(&second))
    }
}
