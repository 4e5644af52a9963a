import BmobWire
import Testing

/// ``WebSocketFrameDecoder`` fed whole streams and streams split at every byte, and every header rule.
@Suite struct WebSocketFrameDecoderTests {
    static let key = WebSocketMaskingKey([0x37, 0xFA, 0x21, 0x3D])

    /// Decodes `bytes` fed in pieces of `chunk` bytes, collecting frames until the first error.
    static func decode(
        _ bytes: [UInt8], role: WebSocketRole = .server, chunk: Int = .max, maximum: Int = 1 << 20
    ) -> (frames: [WebSocketFrame], error: WebSocketProtocolError?) {
        var decoder = WebSocketFrameDecoder(role: role, maximumMessageSize: maximum)
        var frames: [WebSocketFrame] = []
        var offset = 0
        let step = chunk == .max ? max(bytes.count, 1) : chunk
        repeat {
            let end = min(bytes.count, offset + step)
            decoder.append(bytes[offset..<end])
            offset = end
            do {
                while let frame = try decoder.next() { frames.append(frame) }
            } catch {
                return (frames, error)
            }
        } while offset < bytes.count
        return (frames, nil)
    }

    static func expectError(
        _ bytes: [UInt8], role: WebSocketRole = .server, maximum: Int = 1 << 20, _ code: WebSocketCloseCode
    ) {
        let result = decode(bytes, role: role, maximum: maximum)
        #expect(result.frames.isEmpty)
        #expect(result.error?.closeCode == code)
    }

    @Test func rfcMaskedHello() throws {
        let result = Self.decode([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(result.error == nil)
        #expect(result.frames == [WebSocketFrame(opcode: .text, maskingKey: Self.key, payload: Array("Hello".utf8))])
    }

    @Test func rfcUnmaskedHelloAsClient() {
        let result = Self.decode([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], role: .client)
        #expect(result.frames == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
    }

    /// Every length boundary, both roles, fed whole and one byte at a time; the frame re-encodes exactly.
    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func lengthBoundariesRoundTrip(length: Int) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for role in [WebSocketRole.server, .client] {
            let frame = WebSocketFrame(opcode: .binary, maskingKey: role == .server ? Self.key : nil, payload: payload)
            let bytes = frame.encoded()
            for chunk in length > 1000 ? [Int.max, 4099] : [Int.max, 1, 3] {
                let result = Self.decode(bytes, role: role, chunk: chunk)
                #expect(result.error == nil)
                #expect(result.frames == [frame])
                #expect(result.frames.first?.encoded() == bytes)
            }
        }
    }

    /// A stream of several frames split into two pieces at every possible point gives the same frames.
    @Test func splitAtEveryByte() {
        let frames = [
            WebSocketFrame(fin: false, opcode: .text, maskingKey: Self.key, payload: Array("Hel".utf8)),
            WebSocketFrame(opcode: .ping, maskingKey: WebSocketMaskingKey([1, 2, 3, 4]), payload: Array("p".utf8)),
            WebSocketFrame(opcode: .continuation, maskingKey: Self.key, payload: Array("lo".utf8)),
            WebSocketFrame(opcode: .binary, maskingKey: Self.key, payload: [UInt8](repeating: 7, count: 300)),
            WebSocketFrame(opcode: .close, maskingKey: Self.key, payload: [0x03, 0xE8]),
        ]
        let stream = frames.flatMap { $0.encoded() }
        for split in 0...stream.count {
            var decoder = WebSocketFrameDecoder(role: .server)
            var decoded: [WebSocketFrame] = []
            for piece in [stream[..<split], stream[split...]] {
                decoder.append(piece)
                while let frame = try? decoder.next() { decoded.append(frame) }
            }
            #expect(decoded == frames, "split at \(split)")
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func waitsForWholeFrame() throws {
        var decoder = WebSocketFrameDecoder(role: .client)
        decoder.append([0x82, 0x7E, 0x01])
        #expect(try decoder.next() == nil)
        decoder.append([0x00] + [UInt8](repeating: 1, count: 255))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 259)
        decoder.append([1, 0x89])
        #expect(try decoder.next()?.payload.count == 256)
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 1)
    }

    @Test func masking() {
        // A server needs masked frames; a client refuses them.
        Self.expectError([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], role: .server, .protocolError)
        Self.expectError(
            [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58], role: .client, .protocolError)
        // Detected from the first two bytes, before the payload arrives.
        Self.expectError([0x82, 0x7F], role: .server, .protocolError)
    }

    @Test(arguments: [0x40, 0x20, 0x10, 0x70] as [UInt8])
    func reservedBits(bits: UInt8) {
        Self.expectError([0x81 | bits, 0x80, 1, 2, 3, 4], .protocolError)
    }

    @Test(arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func reservedOpcodes(opcode: UInt8) {
        Self.expectError([0x80 | opcode, 0x80, 1, 2, 3, 4], .protocolError)
    }

    @Test(arguments: [0x8, 0x9, 0xA] as [UInt8])
    func controlFrameRules(opcode: UInt8) {
        // 125 bytes is allowed.
        let ok = [0x80 | opcode, 0x80 | 125, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 125)
        #expect(Self.decode(ok).frames.first?.payload.count == 125)
        // 126 is not, whatever the length form.
        Self.expectError([0x80 | opcode, 0x80 | 126, 0, 126], .protocolError)
        Self.expectError([0x80 | opcode, 0x80 | 127, 0, 0, 0, 0, 0, 1, 0, 0], .protocolError)
        // Nor is a control frame without FIN.
        Self.expectError([opcode, 0x80, 0, 0, 0, 0], .protocolError)
    }

    @Test func lengthsMustBeShortest() {
        Self.expectError([0x82, 0xFE, 0x00, 0x7D], .protocolError)
        Self.expectError([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], .protocolError)
        #expect(Self.decode([0x82, 0xFE, 0x00, 0x7E, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 126)).error == nil)
    }

    @Test func topBitOf64BitLength() {
        Self.expectError([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], .protocolError)
        Self.expectError([0x82, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .protocolError)
        // The largest positive length is too big, not malformed.
        Self.expectError([0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .messageTooBig)
    }

    @Test func maximumSize() {
        let at = WebSocketFrame(opcode: .binary, maskingKey: Self.key, payload: [UInt8](repeating: 1, count: 1000))
            .encoded()
        #expect(Self.decode(at, maximum: 1000).frames.count == 1)
        // One byte over fails from the header alone.
        Self.expectError(Array(at.prefix(2)) + [0x03, 0xE9], maximum: 1000, .messageTooBig)
        Self.expectError([0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0], maximum: 1000, .messageTooBig)
        Self.expectError([0x82, 0x80 | 126, 0x00, 0xC8], maximum: 125, .messageTooBig)
    }

    @Test func failureIsSticky() throws {
        var decoder = WebSocketFrameDecoder(role: .server)
        decoder.append([0x81, 0x00])
        #expect(throws: WebSocketProtocolError(.protocolError, "unmasked client frame")) { try decoder.next() }
        decoder.append(WebSocketFrame(opcode: .text, maskingKey: Self.key).encoded())
        #expect(throws: WebSocketProtocolError.self) { try decoder.next() }
        #expect(
            WebSocketProtocolError(.protocolError, "unmasked client frame").description == "1002: unmasked client frame"
        )
    }

    @Test func manySmallFramesKeepTheBufferSmall() throws {
        var decoder = WebSocketFrameDecoder(role: .client)
        let frame = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 9, count: 100)).encoded()
        var count = 0
        for _ in 0..<1000 {
            decoder.append(frame + frame.prefix(50))
            while try decoder.next() != nil { count += 1 }
            decoder.append(frame.dropFirst(50))
            while try decoder.next() != nil { count += 1 }
        }
        #expect(count == 2000)
        #expect(decoder.bufferedByteCount == 0)
    }
}
