import BmobWire
import Testing

/// ``SocketIOPacket`` on malformed text: each rejection has its ``SocketIOError/Code`` and position.
@Suite struct SocketIOPacketErrorTests {
    @Test(arguments: [
        ("", SocketIOError.Code.missingSeparator, 0),
        ("9::", .invalidType, 0),
        ("a::", .invalidType, 0),
        (":::", .invalidType, 0),
        ("-1::", .invalidType, 0),
        ("10::", .invalidType, 1),
        ("٣::", .invalidType, 0),
        ("2", .missingSeparator, 1),
        ("2:", .missingSeparator, 2),
        ("5:12", .missingSeparator, 4),
        ("5:12+", .missingSeparator, 5),
        ("5:x::", .invalidID, 2),
        ("5:+::", .invalidID, 2),
        ("5:1x::", .invalidID, 3),
        ("5:1++::", .invalidID, 4),
        ("5:-1::", .invalidID, 2),
        ("2:::x", .unexpectedData, 4),
        ("0:::bye", .unexpectedData, 4),
        ("8::/e:x", .unexpectedData, 6),
        ("4:::", .invalidJSON, 4),
        ("4::", .invalidJSON, 3),
        ("4:::{", .invalidJSON, 5),
        ("5:::", .invalidJSON, 4),
        ("5:::not json", .invalidJSON, 4),
        ("5:::{\"name\":\"e\"} x", .invalidJSON, 17),
        ("5:::[\"e\"]", .invalidEvent, 4),
        ("5:::{\"args\":[]}", .invalidEvent, 4),
        ("5:::{\"name\":7}", .invalidEvent, 4),
        ("5:::{\"name\":\"e\",\"args\":{}}", .invalidEvent, 4),
        ("5:::{\"name\":\"e\",\"args\":null}", .invalidEvent, 4),
        ("6:::", .invalidAck, 4),
        ("6:::+[1]", .invalidAck, 4),
        ("6:::4x", .invalidAck, 5),
        ("6:::4+{}", .invalidAck, 6),
        ("6:::4+[", .invalidJSON, 7),
    ])
    func rejects(text: String, code: SocketIOError.Code, offset: Int) {
        #expect {
            try SocketIOPacket(decoding: text)
        } throws: { error in
            guard let error = error as? SocketIOError else { return false }
            return error.code == code && error.offset == offset && !error.message.isEmpty
        }
    }

    @Test(arguments: [
        "5:9007199254740992::{\"name\":\"e\"}",
        "5:99999999999999999999999999999999999999::{\"name\":\"e\"}",
        "3:18446744073709551616::x",
        "6:::9007199254740992",
        "6:::123456789012345678901234567890+[]",
    ])
    func rejectsHugeIDs(text: String) {
        #expect(throws: SocketIOError.self) { try SocketIOPacket(decoding: text) }
        do {
            _ = try SocketIOPacket(decoding: text)
        } catch {
            #expect(error.code == .idTooLarge)
        }
    }

    @Test func errorsDoNotEchoTheInput() {
        let secret = "SECRET-TOKEN"
        for text in ["5:::\(secret)", "4:::{\"\(secret)\"", "2:::\(secret)", "5:\(secret)::"] {
            do {
                _ = try SocketIOPacket(decoding: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(!error.description.contains(secret))
            }
        }
    }

    @Test func aVeryLongIDIsRejectedWithoutScanningIntoOverflow() {
        let text = "3:" + String(repeating: "9", count: 100_000) + "::x"
        do {
            _ = try SocketIOPacket(decoding: text)
            Issue.record("accepted a 100000-digit id")
        } catch {
            #expect(error.code == .idTooLarge && error.offset == 2)
        }
    }
}
