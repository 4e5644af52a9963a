import BmobWire
import Testing

/// ``WebSocketUTF8Validator`` against the standard library's decoder, on valid text split anywhere and on
/// each class of malformed input.
@Suite struct WebSocketUTF8ValidatorTests {
    static func validate(_ pieces: [[UInt8]]) -> Bool {
        var validator = WebSocketUTF8Validator()
        for piece in pieces where !validator.consume(piece) { return false }
        return validator.isComplete
    }

    @Test func validTextSplitAtEveryByte() {
        let bytes = Array("a é € 𝄞 ☃ 中文 \u{10FFFF} \u{FFFD} \u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}".utf8)
        for split in 0...bytes.count {
            #expect(Self.validate([Array(bytes[..<split]), Array(bytes[split...])]), "split at \(split)")
        }
        #expect(Self.validate(bytes.map { [$0] }))
    }

    @Test(
        arguments: [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xF0, 0x80, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
            [0xC2, 0x41], [0xE2, 0x82, 0x41], [0xE2, 0x82, 0xE2, 0x82, 0xAC], [0xF0, 0x9D, 0x84],
            [
                0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69,
                0x74, 0x65, 0x64,
            ],
        ] as [[UInt8]])
    func rejectsMalformed(bytes: [UInt8]) {
        #expect(!Self.validate([bytes]))
        #expect(String(validating: bytes, as: UTF8.self) == nil)
    }

    @Test func incompleteAtEndIsNotComplete() {
        var validator = WebSocketUTF8Validator()
        let first = validator.consume([0x41, 0xF0, 0x9F, 0x98])
        #expect(first)
        #expect(!validator.isComplete)
        let second = validator.consume([0x80])
        #expect(second)
        #expect(validator.isComplete)
    }

    /// Agrees with the standard library on every two-byte sequence and on random short sequences.
    @Test func agreesWithStandardLibrary() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                #expect(Self.validate([bytes]) == (String(validating: bytes, as: UTF8.self) != nil))
            }
        }
        var generator = SplitMix64(seed: 3629)
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1,
            0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<20000 {
            let bytes = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                interesting.randomElement(using: &generator)!
            }
            let split = Int.random(in: 0...bytes.count, using: &generator)
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(Self.validate([Array(bytes[..<split]), Array(bytes[split...])]) == expected, "\(bytes)")
        }
    }
}
