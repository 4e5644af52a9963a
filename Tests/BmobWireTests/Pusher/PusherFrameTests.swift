import BmobWire
import Testing

/// ``PusherFrame``: decoding, encoding, the data helpers, bounds and hostile input.
@Suite struct PusherFrameTests {
    @Test func decodesAllMembers() throws {
        let frame = try PusherFrame(
            decoding:
                #"{"event":"client-typing","channel":"presence-room","data":{"who":"alice"},"user_id":"u1","x":1}"#)
        #expect(frame.event == "client-typing")
        #expect(frame.channel?.rawValue == "presence-room")
        #expect(frame.data == ["who": "alice"])
        #expect(frame.userId == "u1")
    }

    @Test func encodesInFixedOrder() throws {
        let frame = PusherFrame(
            event: "client-typing", channel: try PusherChannelName(validating: "presence-room"),
            data: ["who": "alice", "at": 3], userId: "u1")
        #expect(
            frame.encoded
                == #"{"event":"client-typing","channel":"presence-room","data":{"at":3,"who":"alice"},"user_id":"u1"}"#)
        #expect(PusherFrame(event: "pusher:ping").encoded == #"{"event":"pusher:ping"}"#)
        #expect(PusherFrame(event: "e", data: .null).encoded == #"{"event":"e","data":null}"#)
    }

    @Test(arguments: [
        #"{"event":"pusher:ping","data":{}}"#,
        #"{"event":"pusher:ping","data":""}"#,
        #"{"event":"my-event","channel":"room-1","data":"{\"some\":\"data\"}"}"#,
        #"{"event":"client-x","channel":"private-a","data":[1,2.5,true,null,"\u00e9\n"],"user_id":"7"}"#,
        #"  {"event" : "e" , "data" : {"a" : {"b" : [ ]}}}  "#,
        #"{"event":"ünïcödé","data":"\ud83d\ude00"}"#,
    ])
    func roundTrips(text: String) throws {
        let frame = try PusherFrame(decoding: text)
        let again = try PusherFrame(decoding: frame.encoded)
        #expect(again == frame)
        #expect(again.encoded == frame.encoded)
    }

    /// String data stays the exact string (published data is forwarded byte for byte).
    @Test func stringDataIsKeptExactly() throws {
        let published = #"{"some": "data",  "n": 1.0}"#
        let frame = PusherFrame(
            event: "e", channel: try PusherChannelName(validating: "room"), data: .string(published))
        let again = try PusherFrame(decoding: frame.encoded)
        #expect(again.dataString == published)
    }

    @Test func dataHelpers() throws {
        let object = try PusherFrame(decoding: #"{"event":"e","data":{"channel":"a"}}"#)
        #expect(object.dataObject == ["channel": "a"])
        #expect(object.dataString == #"{"channel":"a"}"#)
        let string = try PusherFrame(decoding: #"{"event":"e","data":"{\"channel\":\"a\"}"}"#)
        #expect(string.dataObject == ["channel": "a"])
        #expect(string.dataString == #"{"channel":"a"}"#)
        let notJSON = try PusherFrame(decoding: #"{"event":"e","data":"hello"}"#)
        #expect(notJSON.dataObject == nil)
        #expect(notJSON.dataString == "hello")
        let array = try PusherFrame(decoding: #"{"event":"e","data":[1]}"#)
        #expect(array.dataObject == nil)
        #expect(array.dataString == "[1]")
        let none = try PusherFrame(decoding: #"{"event":"e"}"#)
        #expect(none.data == nil && none.dataObject == nil && none.dataString == nil)
        let stringArray = try PusherFrame(decoding: #"{"event":"e","data":"[1]"}"#)
        #expect(stringArray.dataObject == nil)
    }

    @Test func frameSizeLimit() throws {
        let prefix = #"{"event":"e","data":""#
        let suffix = #""}"#
        let filler = String(
            repeating: "a", count: PusherFrame.defaultMaximumBytes - prefix.utf8.count - suffix.utf8.count)
        let exact = prefix + filler + suffix
        #expect(exact.utf8.count == PusherFrame.defaultMaximumBytes)
        _ = try PusherFrame(decoding: exact)
        #expect {
            try PusherFrame(decoding: prefix + filler + "a" + suffix)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .frameTooLarge && error.code == .clientEventRejected && !error.closesConnection
        }
        // A custom limit.
        #expect(throws: PusherProtocolError.self) { try PusherFrame(decoding: #"{"event":"e"}"#, maximumBytes: 5) }
        _ = try PusherFrame(decoding: prefix + filler + "a" + suffix, maximumBytes: 20_000)
    }

    /// A megabyte frame is refused before it is parsed.
    @Test func hugeFrameIsRefusedUnparsed() {
        let huge = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20)
        #expect {
            try PusherFrame(decoding: huge)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .frameTooLarge
        }
    }

    @Test func eventNameLength() throws {
        let longest = String(repeating: "e", count: PusherFrame.maximumEventNameLength)
        _ = try PusherFrame(decoding: #"{"event":"\#(longest)"}"#)
        #expect {
            try PusherFrame(decoding: #"{"event":"\#(longest)e"}"#)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .invalidEventName && error.code == .clientEventRejected
        }
        // Counted in UTF-16 code units, as JavaScript does: 100 emoji are 200 units.
        _ = try PusherFrame(decoding: #"{"event":"\#(String(repeating: "😀", count: 100))"}"#)
        #expect(throws: PusherProtocolError.self) {
            try PusherFrame(decoding: #"{"event":"\#(String(repeating: "😀", count: 100))e"}"#)
        }
    }

    @Test(arguments: [
        ("", PusherProtocolError.Kind.invalidJSON),
        ("not json", .invalidJSON),
        (#"{"event":"e""#, .invalidJSON),
        (#"{"event":"e"} x"#, .invalidJSON),
        (#"{"event":"e",}"#, .invalidJSON),
        (#"{"event":"\u0000\ud800"}"#, .invalidJSON),
        ("[]", .invalidFrame),
        (#""event""#, .invalidFrame),
        ("null", .invalidFrame),
        ("{}", .invalidFrame),
        (#"{"data":{}}"#, .invalidFrame),
        (#"{"event":null}"#, .invalidFrame),
        (#"{"event":1}"#, .invalidFrame),
        (#"{"event":["e"]}"#, .invalidFrame),
        (#"{"event":""}"#, .invalidEventName),
        (#"{"event":"e","channel":1}"#, .invalidFrame),
        (#"{"event":"e","channel":{}}"#, .invalidFrame),
        (#"{"event":"e","user_id":1}"#, .invalidFrame),
        (#"{"event":"e","channel":""}"#, .invalidChannelName),
        (#"{"event":"e","channel":"a b"}"#, .invalidChannelName),
        (#"{"event":"e","channel":"ch/1"}"#, .invalidChannelName),
        (#"{"event":"e","channel":"private-encrypted-x"}"#, .unsupportedChannel),
    ])
    func rejects(text: String, kind: PusherProtocolError.Kind) {
        #expect {
            try PusherFrame(decoding: text)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == kind && !error.message.isEmpty && !error.closesConnection
        }
    }

    /// JSON nested past the parser's bound is an error, not a stack overflow.
    @Test func deepJSONIsRefused() {
        let depth = 5_000
        let text =
            #"{"event":"e","data":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect {
            try PusherFrame(decoding: text, maximumBytes: 1 << 20)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .invalidJSON
        }
    }

    /// Bytes that are not UTF-8, inside or outside strings, are refused.
    @Test(arguments: [
        [0xFF] as [UInt8],
        Array(#"{"event":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
        Array(#"{"event":"e","data":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
        Array(#"{"event":"e"}"#.utf8) + [0x80],
        [0xEF, 0xBB, 0xBF] + Array(#"{"event":"e"}"#.utf8),
    ])
    func nonUTF8IsRefused(bytes: [UInt8]) {
        #expect {
            try PusherFrame(decoding: bytes)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .invalidJSON
        }
    }
}
