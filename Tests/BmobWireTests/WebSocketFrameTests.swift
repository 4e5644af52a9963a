import BmobWire
import Testing

/// ``WebSocketFrame``'s encoder on RFC 6455 §5.7's examples, at every length boundary, masked and not.
@Suite struct WebSocketFrameTests {
    static let key = WebSocketMaskingKey([0x37, 0xFA, 0x21, 0x3D])
    static let hello = Array("Hello".utf8)

    @Test func rfcExamples() {
        #expect(
            WebSocketFrame(opcode: .text, payload: Self.hello).encoded() == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(
            WebSocketFrame(opcode: .text, maskingKey: Self.key, payload: Self.hello).encoded()
                == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)).encoded() == [
                0x01, 0x03, 0x48, 0x65, 0x6C,
            ])
        #expect(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)).encoded() == [0x80, 0x02, 0x6C, 0x6F])
        #expect(
            WebSocketFrame(opcode: .ping, payload: Self.hello).encoded() == [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(
            WebSocketFrame(opcode: .pong, maskingKey: Self.key, payload: Self.hello).encoded()
                == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(
            Array(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 256)).encoded().prefix(4)) == [
                0x82, 0x7E, 0x01, 0x00,
            ])
        #expect(
            Array(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 65536)).encoded().prefix(10))
                == [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
    }

    /// The length field switches form after 125 and 65535 bytes.
    @Test(
        arguments: [
            (0, [0x82, 0x00]), (1, [0x82, 0x01]), (125, [0x82, 0x7D]), (126, [0x82, 0x7E, 0x00, 0x7E]),
            (127, [0x82, 0x7E, 0x00, 0x7F]), (65535, [0x82, 0x7E, 0xFF, 0xFF]),
            (65536, [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]),
            (70000, [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70]),
        ] as [(Int, [UInt8])])
    func lengthBoundaries(length: Int, header: [UInt8]) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let unmasked = WebSocketFrame(opcode: .binary, payload: payload).encoded()
        #expect(Array(unmasked.prefix(header.count)) == header)
        #expect(unmasked.count == header.count + length)
        #expect(Array(unmasked.dropFirst(header.count)) == payload)

        let masked = WebSocketFrame(opcode: .binary, maskingKey: Self.key, payload: payload).encoded()
        var maskedHeader = header
        maskedHeader[1] |= 0x80
        #expect(Array(masked.prefix(header.count)) == maskedHeader)
        #expect(Array(masked[header.count..<(header.count + 4)]) == Self.key.bytes)
        #expect(masked.count == header.count + 4 + length)
        for index in stride(from: 0, to: length, by: 997) {
            #expect(masked[header.count + 4 + index] == payload[index] ^ Self.key.bytes[index % 4])
        }
    }

    @Test func headerBits() {
        let frame = WebSocketFrame(fin: false, rsv1: true, rsv2: true, rsv3: true, opcode: .binary)
        #expect(frame.encoded() == [0x72, 0x00])
        #expect(WebSocketFrame(rsv2: true, opcode: .ping).encoded() == [0xA9, 0x00])
    }

    @Test func encodeAppends() {
        var buffer: [UInt8] = [0xAA]
        WebSocketFrame(opcode: .pong).encode(into: &buffer)
        #expect(buffer == [0xAA, 0x8A, 0x00])
    }

    @Test func maskingTwiceRestoresAndOffsetsContinue() {
        var bytes = (0..<11).map { UInt8($0) }
        Self.key.apply(to: &bytes)
        var tail = Array(bytes[5...])
        var head = Array(bytes[..<5])
        Self.key.apply(to: &head)
        Self.key.apply(to: &tail, offset: 5)
        #expect(head + tail == (0..<11).map { UInt8($0) })
    }

    @Test func randomKeysDiffer() {
        var generator = SplitMix64(seed: 42)
        let keys = (0..<8).map { _ in WebSocketMaskingKey.random(using: &generator) }
        #expect(Set(keys).count == 8)
    }

    @Test func closeFrames() {
        #expect(WebSocketFrame.close(code: nil).encoded() == [0x88, 0x00])
        #expect(WebSocketFrame.close(code: .normalClosure).encoded() == [0x88, 0x02, 0x03, 0xE8])
        #expect(WebSocketFrame.close(code: .messageTooBig, reason: "big").payload == [0x03, 0xF1] + Array("big".utf8))
        // A long reason is cut at a character boundary to keep the payload within 125 bytes.
        let long = WebSocketFrame.close(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(long.payload.count == 124)
        #expect(String(validating: long.payload[2...], as: UTF8.self) == String(repeating: "é", count: 61))
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] as [UInt16])
    func unsendableCloseCodes(code: UInt16) {
        #expect(!WebSocketCloseCode(rawValue: code).isSendable)
    }

    @Test(
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999]
            as [UInt16])
    func sendableCloseCodes(code: UInt16) {
        #expect(WebSocketCloseCode(rawValue: code).isSendable)
    }

    @Test func controlOpcodes() {
        #expect(WebSocketOpcode.allCases.filter(\.isControl) == [.close, .ping, .pong])
    }
}
