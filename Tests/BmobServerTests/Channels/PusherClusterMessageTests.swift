import BmobServerCodecs
import BmobWire
import Testing

/// The channel log's message encoding: every message survives its round trip, and what does not decode as one
/// of them (malformed, oversized fields, protocol event names, invalid channels or socket ids) is refused.
@Suite struct PusherClusterMessageTests {
    @Test("each message decodes to itself")
    func roundTrips() throws {
        let news = try PusherChannelName(validating: "news")
        let room = try PusherChannelName(validating: "presence-room")
        let chat = try PusherChannelName(validating: "private-chat")
        let socket = try PusherSocketId(validating: "123.456")
        let messages: [PusherClusterMessage] = [
            .event(channels: [news, room], name: "headline", data: #"{"a":1}"#, excluded: nil),
            .event(channels: [news], name: "headline", data: "", excluded: socket),
            .clientEvent(
                channel: chat, name: "client-typing", data: ["now": true], senderUserId: nil, excluded: socket),
            .clientEvent(channel: room, name: "client-typing", data: nil, senderUserId: "ada", excluded: socket),
            .memberAdded(channel: room, userId: "ada", userInfo: ["name": "Ada"]),
            .memberAdded(channel: room, userId: "bob", userInfo: nil),
            .memberRemoved(channel: room, userId: "ada"),
            .terminate(userId: "carol"),
        ]
        for message in messages {
            #expect(PusherClusterMessage(decoding: message.encoded) == message, "\(message.encoded)")
        }
    }

    @Test("what is not a well-formed message is refused")
    func refusesTheRest() {
        let refused = [
            "", "null", "[]", "{}", #"{"k":"event"}"#, #"{"k":"event","c":["news"],"n":"x"}"#,
            #"{"k":"event","c":["news"],"n":"pusher:ping","d":""}"#,
            #"{"k":"event","c":["news"],"n":"pusher_internal:member_added","d":""}"#,
            #"{"k":"event","c":["news"],"n":"\#(String(repeating: "x", count: 201))","d":""}"#,
            #"{"k":"event","c":[\#(Array(repeating: #""news""#, count: 101).joined(separator: ","))],"n":"x","d":""}"#,
            #"{"k":"event","c":["news"],"n":"x","d":5}"#,
            #"{"k":"client","c":"news","n":"client-x","x":"1.2"}"#,
            #"{"k":"client","c":"private-chat","n":"not-client","x":"1.2"}"#,
            #"{"k":"client","c":"private-chat","n":"client-x"}"#,
            #"{"k":"client","c":"private-chat","n":"client-x","x":"1.2","u":""}"#,
            #"{"k":"added","c":"private-chat","u":"ada"}"#,
            #"{"k":"removed","c":"presence-room"}"#,
            #"{"k":"terminate","u":"\#(String(repeating: "u", count: 201))"}"#,
            #"{"k":"terminate"}"#,
        ]
        for text in refused {
            #expect(PusherClusterMessage(decoding: text) == nil, "\(text)")
        }
    }
}
