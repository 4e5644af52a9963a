import BmobWire
import Testing

/// ``SocketIOFrameBatch``: the `\u{FFFD}<length>\u{FFFD}<packet>` framing, with lengths in UTF-16 code units.
@Suite struct SocketIOFrameBatchTests {
    static let mark = "\u{FFFD}"

    @Test func aFrameWithoutTheMarkIsOnePacket() throws {
        #expect(try SocketIOFrameBatch.split("2::") == ["2::"])
        #expect(try SocketIOFrameBatch.decode("1::") == [.connect])
        #expect(SocketIOFrameBatch.encode([.heartbeat]) == "2:::")
        #expect(SocketIOFrameBatch.encode([]) == "")
    }

    @Test func splitsAndJoinsSeveralPackets() throws {
        let frame = "\(Self.mark)3\(Self.mark)1::\(Self.mark)4\(Self.mark)2:::\(Self.mark)7\(Self.mark)3:::a:b"
        #expect(try SocketIOFrameBatch.split(frame) == ["1::", "2:::", "3:::a:b"])
        let packets = try SocketIOFrameBatch.decode(frame)
        #expect(packets == [.connect, .heartbeat, SocketIOPacket(.message("a:b"))])
        #expect(SocketIOFrameBatch.encode(packets) == frame)
        #expect(SocketIOFrameBatch.join(["1::", "2:::", "3:::a:b"]) == frame)
    }

    @Test func lengthsCountUTF16CodeUnitsAsJavaScriptDoes() throws {
        // "é" is 1 unit (2 UTF-8 bytes), "😀" is 2 units (4 bytes), "数" 1 unit (3 bytes).
        let text = "3:::é😀数"
        #expect(text.utf16.count == 8)
        let frame = SocketIOFrameBatch.encode([SocketIOPacket(.message("é😀数")), .noop])
        #expect(frame == "\(Self.mark)8\(Self.mark)\(text)\(Self.mark)3\(Self.mark)8::")
        #expect(try SocketIOFrameBatch.decode(frame) == [SocketIOPacket(.message("é😀数")), .noop])
    }

    @Test func membersMayContainTheMark() throws {
        let packet = SocketIOPacket(.message("\(Self.mark)9\(Self.mark)"))
        let frame = SocketIOFrameBatch.encode([packet, packet])
        #expect(try SocketIOFrameBatch.decode(frame) == [packet, packet])
    }

    @Test func combiningMarksDoNotMoveTheBoundaries() throws {
        // U+0301 joins the ':' before it into one Character, and U+FFFD + U+0301 are one Character too.
        let packets = [SocketIOPacket(.message("\u{301}")), SocketIOPacket(.message("x"))]
        let frame = SocketIOFrameBatch.encode(packets)
        #expect(frame == "\(Self.mark)5\(Self.mark)3:::\u{301}\(Self.mark)5\(Self.mark)3:::x")
        #expect(try SocketIOFrameBatch.decode(frame) == packets)
    }

    @Test func aBatchOfOneIsAccepted() throws {
        #expect(try SocketIOFrameBatch.decode("\(Self.mark)3\(Self.mark)8::") == [.noop])
    }

    @Test(arguments: [
        ("\u{FFFD}", 1),
        ("\u{FFFD}3", 1),
        ("\u{FFFD}\u{FFFD}2::", 1),
        ("\u{FFFD}0\u{FFFD}", 1),
        ("\u{FFFD}x\u{FFFD}2::", 1),
        ("\u{FFFD}-3\u{FFFD}2::", 1),
        ("\u{FFFD}4\u{FFFD}2::", 1),
        ("\u{FFFD}2\u{FFFD}2::", 5),
        ("\u{FFFD}3\u{FFFD}2::x", 6),
        ("\u{FFFD}3\u{FFFD}2::\u{FFFD}", 7),
        ("\u{FFFD}1234567890\u{FFFD}2::", 1),
        ("\u{FFFD}5\u{FFFD}3:::😀", 8),
    ])
    func rejectsMalformedBatches(frame: String, offset: Int) {
        do {
            _ = try SocketIOFrameBatch.split(frame)
            Issue.record("accepted a malformed batch")
        } catch {
            #expect(error.code == .invalidFrame)
            #expect(error.offset == offset)
        }
    }

    @Test func aBadMemberFailsTheWholeFrame() {
        let frame = "\(Self.mark)3\(Self.mark)2::\(Self.mark)3\(Self.mark)9::"
        #expect(throws: SocketIOError(.invalidType, "packet type must be a digit 0-8", offset: 0)) {
            try SocketIOFrameBatch.decode(frame)
        }
    }
}
