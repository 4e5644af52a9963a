import BmobWire
import Testing

/// ``SocketIOPacket``: every packet type decoded from the forms real clients send, encoded in canonical form,
/// and round-tripped.
@Suite struct SocketIOPacketTests {
    static let subText =
        #"{"appKey":"a1b2c3","tableName":"Chat","objectId":"","action":"updateTable"}"#

    @Test(arguments: [
        ("0::", SocketIOPacket(.disconnect)),
        ("0::/chat", SocketIOPacket(.disconnect, endpoint: "/chat")),
        ("1::", SocketIOPacket(.connect(query: ""))),
        ("1:::", SocketIOPacket(.connect(query: ""))),
        ("1::/chat:?token=x", SocketIOPacket(.connect(query: "?token=x"), endpoint: "/chat")),
        ("2::", SocketIOPacket(.heartbeat)),
        ("2:::", SocketIOPacket(.heartbeat)),
        ("3:::hello", SocketIOPacket(.message("hello"))),
        ("3::", SocketIOPacket(.message(""))),
        ("3:1::a:b:c", SocketIOPacket(.message("a:b:c"), id: SocketIOPacketID(1))),
        ("4:::{\"a\":[1,true,null]}", SocketIOPacket(.json(["a": [1, true, nil]]))),
        ("4::/x:\"s\"", SocketIOPacket(.json("s"), endpoint: "/x")),
        ("5:::{\"name\":\"ping\"}", SocketIOPacket(.event(name: "ping", args: []))),
        ("5:::{\"args\":[1,\"a\"],\"name\":\"e\",\"extra\":0}", SocketIOPacket(.event(name: "e", args: [1, "a"]))),
        (
            "5:7+::{\"name\":\"e\",\"args\":[]}",
            SocketIOPacket(.event(name: "e", args: []), id: SocketIOPacketID(7, ackWithData: true))
        ),
        ("5:7::{\"name\":\"e\",\"args\":[]}", SocketIOPacket(.event(name: "e", args: []), id: SocketIOPacketID(7))),
        ("6:::4", SocketIOPacket(.ack(id: 4, args: []))),
        ("6:::4+", SocketIOPacket(.ack(id: 4, args: []))),
        ("6:::4+[\"ok\",2]", SocketIOPacket(.ack(id: 4, args: ["ok", 2]))),
        ("7:::", SocketIOPacket(.error(reason: "", advice: nil))),
        ("7::", SocketIOPacket(.error(reason: "", advice: nil))),
        ("7:::1+0", SocketIOPacket(.error(reason: "1", advice: "0"))),
        ("7:::unauthorized", SocketIOPacket(.error(reason: "unauthorized", advice: nil))),
        ("7::/chat:2+0+x", SocketIOPacket(.error(reason: "2", advice: "0+x"), endpoint: "/chat")),
        ("8::", SocketIOPacket(.noop)),
        ("8:::", SocketIOPacket(.noop)),
    ])
    func decodesEveryType(text: String, expected: SocketIOPacket) throws {
        let packet = try SocketIOPacket(decoding: text)
        #expect(packet == expected)
        #expect(try SocketIOPacket(decoding: packet.encoded) == packet)
    }

    @Test(arguments: [
        (SocketIOPacket.disconnect, "0::"),
        (SocketIOPacket.connect, "1::"),
        (SocketIOPacket(.connect(query: "?t=1"), endpoint: "/a"), "1::/a:?t=1"),
        (SocketIOPacket.heartbeat, "2:::"),
        (SocketIOPacket(.message("hi")), "3:::hi"),
        (SocketIOPacket(.json(["b": 1, "a": "x"])), "4:::{\"a\":\"x\",\"b\":1}"),
        (SocketIOPacket.event("e", []), "5:::{\"name\":\"e\",\"args\":[]}"),
        (
            SocketIOPacket.event("e", ["x"], id: SocketIOPacketID(12, ackWithData: true)),
            "5:12+::{\"name\":\"e\",\"args\":[\"x\"]}"
        ),
        (SocketIOPacket(.ack(id: 12, args: [])), "6:::12"),
        (SocketIOPacket(.ack(id: 12, args: [true])), "6:::12+[true]"),
        (SocketIOPacket(.error(reason: "1", advice: "0")), "7:::1+0"),
        (SocketIOPacket(.error(reason: "2", advice: nil)), "7:::2"),
        (SocketIOPacket.noop, "8::"),
    ])
    func encodesCanonically(packet: SocketIOPacket, text: String) throws {
        #expect(packet.encoded == text)
        #expect(try SocketIOPacket(decoding: text) == packet)
    }

    @Test func typesMatchTheirDigits() {
        for type in SocketIOPacketType.allCases {
            #expect(type.rawValue == SocketIOPacketType.allCases.firstIndex(of: type).map(UInt8.init))
        }
        #expect(SocketIOPacket.heartbeat.type == .heartbeat)
        #expect(SocketIOPacket(.ack(id: 1, args: [])).type == .ack)
        #expect(SocketIOPayload.error(reason: "", advice: nil).type == .error)
    }

    @Test func heartbeatIsWrittenSoTheWeChatClientAnswersIt() {
        // The WeChat JavaScript client only answers frames starting with "2:::".
        #expect(SocketIOPacket.heartbeat.encoded.hasPrefix("2:::"))
    }

    @Test func bmobClientSubscribeEvent() throws {
        let text = "5:::{\"name\":\"client_sub\",\"args\":[" + JSONValue.string(Self.subText).jsonString + "]}"
        let packet = try SocketIOPacket(decoding: text)
        guard case .event(let name, let args) = packet.payload else {
            Issue.record("not an event")
            return
        }
        #expect(name == "client_sub")
        #expect(args == [.string(Self.subText)])
        #expect(packet.id == nil && packet.endpoint.isEmpty)
        #expect(try SocketIOPacket(decoding: packet.encoded) == packet)
    }

    @Test func flutterEventWithAckID() throws {
        let packet = try SocketIOPacket(decoding: "5:3+::{\"name\":\"client_unsub\",\"args\":[\"{}\"]}")
        #expect(packet.id == SocketIOPacketID(3, ackWithData: true))
        #expect(packet.payload == .event(name: "client_unsub", args: ["{}"]))
        #expect(packet.encoded == "5:3+::{\"name\":\"client_unsub\",\"args\":[\"{}\"]}")
    }

    @Test func serverPublishEventCarriesAJSONString() throws {
        let inner = #"{"appKey":"k","tableName":"Blog","objectId":"","action":"updateTable","data":{"objectId":"o1"}}"#
        let text = "5:::{\"name\":\"server_pub\",\"args\":[" + JSONValue.string(inner).jsonString + "]}"
        let packet = try SocketIOPacket(decoding: text)
        #expect(packet.payload == .event(name: "server_pub", args: [.string(inner)]))
        #expect(packet.encoded == text)
    }

    @Test func messageDataKeepsColonsNewlinesAndUnicode() throws {
        let data = "a:b\n::c 数据 😀 \u{FFFD}"
        let packet = SocketIOPacket(.message(data), endpoint: "/end")
        #expect(packet.encoded == "3::/end:" + data)
        #expect(try SocketIOPacket(decoding: packet.encoded) == packet)
    }

    @Test func largestIDRoundTrips() throws {
        let text = "5:9007199254740991::{\"name\":\"e\",\"args\":[]}"
        let packet = try SocketIOPacket(decoding: text)
        #expect(packet.id?.value == SocketIOPacketID.maximum)
        #expect(packet.encoded == text)
        #expect(
            try SocketIOPacket(decoding: "6:::9007199254740991").payload == .ack(id: SocketIOPacketID.maximum, args: [])
        )
    }

    @Test func leadingZerosInIDsAreRead() throws {
        #expect(try SocketIOPacket(decoding: "3:007::x").id == SocketIOPacketID(7))
        #expect(try SocketIOPacket(decoding: "6:::0012").payload == .ack(id: 12, args: []))
    }

    @Test func decodesFromASubstring() throws {
        let frame = "xx2::yy"
        let start = frame.index(frame.startIndex, offsetBy: 2)
        let end = frame.index(start, offsetBy: 3)
        #expect(try SocketIOPacket(decoding: frame[start..<end]) == .heartbeat)
    }

    @Test func separatorsAreBytesEvenBeforeCombiningMarks() throws {
        // ":" + U+0301 is one Character, but the ':' still separates the fields.
        let packet = try SocketIOPacket(decoding: "3::a:\u{301}b")
        #expect(packet.endpoint == "a")
        #expect(packet.payload == .message("\u{301}b"))
        #expect(try SocketIOPacket(decoding: packet.encoded) == packet)
        let error = try SocketIOPacket(decoding: "7:::r+\u{301}")
        #expect(error.payload == .error(reason: "r", advice: "\u{301}"))
        #expect(throws: SocketIOError.self) { try SocketIOPacket(decoding: "5:\u{33F}::{}") }
    }
}
