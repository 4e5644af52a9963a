import BmobWire
import Testing

/// ``PusherClientMessage``: every message as real clients send it, in both prefixes, and refusals.
@Suite struct PusherClientMessageTests {
    static func decode(_ text: String, _ prefix: PusherEventPrefix = .pusher) throws -> PusherClientMessage {
        try PusherClientMessage(decoding: text, prefix: prefix)
    }

    static func channel(_ name: String) throws -> PusherChannelName { try PusherChannelName(validating: name) }

    @Test func pingAndPong() throws {
        #expect(try Self.decode(#"{"event":"pusher:ping","data":{}}"#) == .ping)
        #expect(try Self.decode(#"{"event":"pusher:ping","data":""}"#) == .ping)  // pysher
        #expect(try Self.decode(#"{"event":"pusher:ping"}"#) == .ping)
        #expect(try Self.decode(#"{"event":"pusher:pong","data":{}}"#) == .pong)
        #expect(try Self.decode(#"{"event":"bird:ping","data":{}}"#, .bird) == .ping)
    }

    @Test func subscribeAsPusherJSSendsIt() throws {
        #expect(
            try Self.decode(#"{"event":"pusher:subscribe","data":{"auth":"","channel":"room-1"}}"#)
                == .subscribe(channel: try Self.channel("room-1"), auth: nil, channelData: nil))
        #expect(
            try Self.decode(#"{"event":"pusher:subscribe","data":{"channel":"private-room","auth":"KEY:sig"}}"#)
                == .subscribe(channel: try Self.channel("private-room"), auth: "KEY:sig", channelData: nil))
        #expect(
            try Self.decode(#"{"event":"pusher:subscribe","data":{"channel":"room-1","auth":null}}"#)
                == .subscribe(channel: try Self.channel("room-1"), auth: nil, channelData: nil))
    }

    /// `channel_data` is the exact string received, spacing and key order included.
    @Test func presenceChannelDataIsExact() throws {
        let channelData = #"{"user_id": 10,   "user_info": {"name": "Mr. Channels"}, "a": 1.0}"#
        var encoded: [UInt8] = []
        JSONValue.appendString(channelData, to: &encoded)
        let text =
            #"{"event":"pusher:subscribe","data":{"channel":"presence-lobby","auth":"K:s","channel_data":"#
            + String(decoding: encoded, as: UTF8.self) + "}}"
        #expect(
            try Self.decode(text)
                == .subscribe(channel: try Self.channel("presence-lobby"), auth: "K:s", channelData: channelData))
    }

    /// Data sent as a string holding the object is accepted too.
    @Test func subscribeDataAsString() throws {
        #expect(
            try Self.decode(#"{"event":"bird:subscribe","data":"{\"channel\":\"room\"}"}"#, .bird)
                == .subscribe(channel: try Self.channel("room"), auth: nil, channelData: nil))
    }

    @Test func unsubscribe() throws {
        #expect(
            try Self.decode(#"{"event":"pusher:unsubscribe","data":{"channel":"room-1"}}"#)
                == .unsubscribe(channel: try Self.channel("room-1")))
    }

    @Test func signin() throws {
        #expect(
            try Self.decode(#"{"event":"pusher:signin","data":{"auth":"K:s","user_data":"{\"id\": \"1\"}"}}"#)
                == .signin(auth: "K:s", userData: #"{"id": "1"}"#))
    }

    @Test func clientEvent() throws {
        let message = try Self.decode(
            #"{"event":"client-typing","channel":"private-room","data":{"who":"alice"},"user_id":"forged"}"#)
        #expect(
            message
                == .clientEvent(
                    name: "client-typing", channel: try Self.channel("private-room"), data: ["who": "alice"]))
        // Decoding does not judge the channel kind; the server checks allowsClientEvents.
        #expect(
            try Self.decode(#"{"event":"client-x","channel":"public"}"#)
                == .clientEvent(name: "client-x", channel: try Self.channel("public"), data: nil))
    }

    @Test(arguments: [
        (
            #"{"event":"pusher:connection_established","data":{}}"#, PusherEventPrefix.pusher,
            PusherProtocolError.Kind.unknownEvent
        ),
        (#"{"event":"pusher:cache_miss"}"#, .pusher, .unknownEvent),
        (#"{"event":"pusher:"}"#, .pusher, .unknownEvent),
        (#"{"event":"pusher:Ping"}"#, .pusher, .unknownEvent),
        (#"{"event":"pusher_internal:subscription_succeeded","data":"{}"}"#, .pusher, .unknownEvent),
        (#"{"event":"bird:error"}"#, .bird, .unknownEvent),
        (#"{"event":"pusher:subscribe","data":{"channel":"room"}}"#, .bird, .invalidEventName),
        (#"{"event":"bird:ping"}"#, .pusher, .invalidEventName),
        (#"{"event":"my-event","channel":"room"}"#, .pusher, .invalidEventName),
        (#"{"event":"client-x"}"#, .pusher, .invalidFrame),
        (#"{"event":"client-x","channel":"bad name"}"#, .pusher, .invalidChannelName),
        (#"{"event":"pusher:subscribe"}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":null}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":[]}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":"room"}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":{}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":{"channel":1}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:subscribe","data":{"channel":"room","auth":1}}"#, .pusher, .invalidData),
        (
            #"{"event":"pusher:subscribe","data":{"channel":"presence-x","channel_data":{"user_id":1}}}"#, .pusher,
            .invalidData
        ),
        (#"{"event":"pusher:subscribe","data":{"channel":"a b"}}"#, .pusher, .invalidChannelName),
        (#"{"event":"pusher:subscribe","data":{"channel":"private-encrypted-a"}}"#, .pusher, .unsupportedChannel),
        (#"{"event":"pusher:subscribe","data":{"channel":"cache-a"}}"#, .pusher, .unsupportedChannel),
        (#"{"event":"pusher:unsubscribe","data":{}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:signin","data":{"auth":"K:s"}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:signin","data":{"user_data":"{}"}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:signin","data":{"auth":"","user_data":"{}"}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:signin","data":{"auth":"K:s","user_data":{"id":"1"}}}"#, .pusher, .invalidData),
        (#"{"event":"pusher:signin","data":{"auth":"K:s","user_data":""}}"#, .pusher, .invalidData),
    ])
    func rejects(text: String, prefix: PusherEventPrefix, kind: PusherProtocolError.Kind) {
        #expect {
            try PusherClientMessage(decoding: text, prefix: prefix)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == kind && !error.message.isEmpty && !error.closesConnection
        }
    }

    @Test func parsesChannelData() throws {
        let member = try PusherChannelData(parsing: #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#)
        #expect(member == PusherChannelData(userId: "10", userInfo: ["name": "Mr. Channels"]))
        #expect(try PusherChannelData(parsing: #"{"user_id":"u1"}"#) == PusherChannelData(userId: "u1"))
        #expect(try PusherChannelData(parsing: #"{"user_id":"u1","user_info":null}"#).userInfo == nil)
        for bad in [
            "", "[]", "{}", #"{"user_id":""}"#, #"{"user_id":1.5}"#, #"{"user_id":null}"#, #"{"user_id":["a"]}"#,
        ] {
            #expect {
                try PusherChannelData(parsing: bad)
            } throws: { error in
                (error as? PusherProtocolError)?.kind == .invalidChannelData
            }
        }
    }

    @Test func parsesUserData() throws {
        let user = try PusherUserData(parsing: #"{"id":"12345","user_info":{"name":"A"},"watchlist":["b","c"]}"#)
        #expect(user.id == "12345")
        #expect(user.userInfo == ["name": "A"])
        #expect(user.watchlist == ["b", "c"])
        #expect(try PusherUserData(parsing: #"{"id": "12345"}"#).watchlist.isEmpty)
        for bad in [
            "", "{}", #"{"id":""}"#, #"{"id":1}"#, #"{"id":"a b"}"#, #"{"id":"a","watchlist":"b"}"#,
            #"{"id":"a","watchlist":[1]}"#, #"{"id":"\#(String(repeating: "a", count: 200))"}"#,
        ] {
            #expect {
                try PusherUserData(parsing: bad)
            } throws: { error in
                (error as? PusherProtocolError)?.kind == .invalidUserData
            }
        }
    }
}
