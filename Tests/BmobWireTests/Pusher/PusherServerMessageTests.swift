import BmobWire
import Testing

/// ``PusherServerMessage``: the exact text of every server frame, in both prefixes.
@Suite struct PusherServerMessageTests {
    static let pusher = PusherServerMessage(prefix: .pusher)
    static let bird = PusherServerMessage(prefix: .bird)

    static func channel(_ name: String) throws -> PusherChannelName { try PusherChannelName(validating: name) }

    @Test func connectionEstablishedDataIsAString() throws {
        let frame = Self.pusher.connectionEstablished(socketId: try PusherSocketId(validating: "123.456"))
        #expect(
            frame.encoded
                == #"{"event":"pusher:connection_established","data":"{\"activity_timeout\":120,\"socket_id\":\"123.456\"}"}"#
        )
        #expect(frame.dataObject == ["socket_id": "123.456", "activity_timeout": 120])
        let bird = Self.bird.connectionEstablished(socketId: PusherSocketId(1, 2), activityTimeout: 30)
        #expect(
            bird.encoded
                == #"{"event":"bird:connection_established","data":"{\"activity_timeout\":30,\"socket_id\":\"1.2\"}"}"#)
    }

    @Test func errorDataIsAnObject() {
        #expect(
            Self.pusher.error(code: .connectionUnauthorized, message: "Connection not authorized.").encoded
                == #"{"event":"pusher:error","data":{"code":4009,"message":"Connection not authorized."}}"#)
        #expect(
            Self.bird.error(code: nil, message: "Invalid signature").encoded
                == #"{"event":"bird:error","data":{"code":null,"message":"Invalid signature"}}"#)
        let refusal = PusherProtocolError(.frameTooLarge, "too big", code: .clientEventRejected)
        #expect(
            Self.pusher.error(refusal).encoded
                == #"{"event":"pusher:error","data":{"code":4301,"message":"too big"}}"#)
    }

    @Test func pingAndPong() {
        #expect(Self.pusher.pong().encoded == #"{"event":"pusher:pong","data":{}}"#)
        #expect(Self.bird.ping().encoded == #"{"event":"bird:ping","data":{}}"#)
    }

    @Test func subscriptionSucceeded() throws {
        #expect(
            Self.pusher.subscriptionSucceeded(channel: try Self.channel("room-1")).encoded
                == #"{"event":"pusher_internal:subscription_succeeded","channel":"room-1","data":"{}"}"#)
        var members = PusherPresenceMembers()
        try members.add(socket: PusherSocketId(1, 1), userId: "u1", userInfo: ["name": "A"])
        try members.add(socket: PusherSocketId(1, 2), userId: "u2", userInfo: nil)
        let frame = Self.bird.subscriptionSucceeded(channel: try Self.channel("presence-lobby"), members: members)
        #expect(
            frame.encoded
                == #"{"event":"bird_internal:subscription_succeeded","channel":"presence-lobby","data":"#
                + #""{\"presence\":{\"count\":2,\"hash\":{\"u1\":{\"name\":\"A\"},\"u2\":null},\"ids\":[\"u1\",\"u2\"]}}"}"#
        )
    }

    @Test func members() throws {
        let lobby = try Self.channel("presence-lobby")
        #expect(
            Self.pusher.memberAdded(channel: lobby, userId: "u2", userInfo: ["name": "B"]).encoded
                == #"{"event":"pusher_internal:member_added","channel":"presence-lobby","data":"{\"user_id\":\"u2\",\"user_info\":{\"name\":\"B\"}}"}"#
        )
        #expect(
            Self.pusher.memberAdded(channel: lobby, userId: "u2", userInfo: nil).encoded
                == #"{"event":"pusher_internal:member_added","channel":"presence-lobby","data":"{\"user_id\":\"u2\"}"}"#
        )
        #expect(
            Self.pusher.memberRemoved(channel: lobby, userId: "u2").encoded
                == #"{"event":"pusher_internal:member_removed","channel":"presence-lobby","data":"{\"user_id\":\"u2\"}"}"#
        )
    }

    @Test func signinSuccessKeepsTheString() {
        #expect(
            Self.pusher.signinSuccess(userData: #"{"id": "1"}"#).encoded
                == #"{"event":"pusher:signin_success","data":{"user_data":"{\"id\": \"1\"}"}}"#)
    }

    @Test func eventsAreForwarded() throws {
        let published = #"{"some": "data"}"#
        #expect(
            Self.pusher.event("my-event", channel: try Self.channel("room"), data: .string(published)).encoded
                == #"{"event":"my-event","channel":"room","data":"{\"some\": \"data\"}"}"#)
        #expect(
            Self.bird.event("notice", channel: try Self.channel("#server-to-user-u1"), data: "x").encoded
                == ##"{"event":"notice","channel":"#server-to-user-u1","data":"x"}"##)
    }

    @Test func clientEventRelayAddsUserIdOnPresenceOnly() throws {
        #expect(
            Self.pusher.clientEvent(
                "client-typing", channel: try Self.channel("presence-room"), data: ["who": "alice"], senderUserId: "u1"
            ).encoded == #"{"event":"client-typing","channel":"presence-room","data":{"who":"alice"},"user_id":"u1"}"#)
        #expect(
            Self.pusher.clientEvent(
                "client-typing", channel: try Self.channel("private-room"), data: ["who": "alice"], senderUserId: "u1"
            ).encoded == #"{"event":"client-typing","channel":"private-room","data":{"who":"alice"}}"#)
    }

    @Test func subscriptionCount() throws {
        #expect(
            Self.pusher.subscriptionCount(channel: try Self.channel("room"), count: 3).encoded
                == #"{"event":"pusher_internal:subscription_count","channel":"room","data":"{\"subscription_count\":3}"}"#
        )
    }

    /// Every server frame decodes as a frame and, for a client on the same prefix, is not a client message.
    @Test func serverFramesDecode() throws {
        let frames = [
            Self.pusher.connectionEstablished(socketId: PusherSocketId(1, 2)),
            Self.pusher.error(code: nil, message: "m"),
            Self.pusher.subscriptionSucceeded(channel: try Self.channel("room")),
        ]
        for frame in frames {
            #expect(try PusherFrame(decoding: frame.encoded) == frame)
            #expect(throws: PusherProtocolError.self) { try PusherClientMessage(frame: frame, prefix: .pusher) }
        }
    }
}
