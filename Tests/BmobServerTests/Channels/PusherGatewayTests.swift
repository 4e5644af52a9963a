import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The channels door on one node: connection, refusals, public/private/presence subscriptions, client events,
/// signin and server-to-user events, and the signed HTTP API, with both event prefixes.
@Suite("Channels: the Pusher-protocol edge")
struct PusherGatewayTests {
    private func withChannels(clientEvents: Bool = false, _ body: (TestServer) async throws -> Void) async throws {
        var channels = TestServer.channels
        channels.clientEvents = clientEvents
        let server = try await TestServer.start(channels: channels)
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("connection_established with a digits.digits socket id and an activity timeout; ping, pong")
    func connects() async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.connect(server)
            #expect(PusherSocketId.isValid(client.socketId))
            try await client.send(["event": "pusher:ping", "data": [:]])
            #expect(try await client.next()["event"] == "pusher:pong")
            // pysher pings with "" as data.
            try await client.send(["event": "pusher:ping", "data": ""])
            #expect(try await client.next()["event"] == "pusher:pong")
        }
    }

    @Test("refusals: an error frame with the code, then a close with it", arguments: [
        ("nokey", "protocol=7", 4001), ("key", "", 4008), ("key", "protocol=5", 4007), ("key", "protocol=7&prefix=bogus", 4005),
    ])
    func refusals(key: String, query: String, code: Int) async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.open(
                server, key: key == "key" ? TestServer.channels.key : "unknownkey0000", query: query)
            let error = try await client.next()
            #expect(error["event"] == "pusher:error")
            #expect(error["data"]?["code"]?.int64Value == Int64(code), "\(error)")
            #expect(try await client.socket.nextClose()?.rawValue == UInt16(code))
        }
    }

    @Test("public and private channels: signed subscriptions succeed, bad signatures are refused on the connection")
    func subscriptions() async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.connect(server)
            let open = try await client.subscribe("news")
            #expect(open["event"] == "pusher_internal:subscription_succeeded" && open["channel"] == "news")
            let refused = try await client.subscribe("private-x", auth: TestServer.channels.key + ":" + String(repeating: "0", count: 64))
            #expect(refused["event"] == "pusher:error" && refused["data"]?["code"] == .null, "\(refused)")
            // Another connection's signature does not work here either.
            let stolen = try await client.subscribe("private-x", auth: PusherTestClient.sign("1.1:private-x"))
            #expect(stolen["event"] == "pusher:error")
            let signed = try await client.subscribe("private-x")
            #expect(signed["event"] == "pusher_internal:subscription_succeeded", "\(signed)")
            // Events published through the API reach both channels; data is the string published.
            let api = PusherAPIClient(server: server)
            #expect(try await api.trigger(["news", "private-x"], "headline", #"{"title":"hi"}"#).status == 200)
            var received: [JSONValue] = [try await client.nextEvent(), try await client.nextEvent()]
            received.sort { ($0["channel"]?.stringValue ?? "") < ($1["channel"]?.stringValue ?? "") }
            #expect(received.map { $0["channel"] } == ["news", "private-x"])
            #expect(received.allSatisfy { $0["event"] == "headline" && $0["data"] == #"{"title":"hi"}"# })
            // socket_id leaves that connection out.
            #expect(try await api.trigger(["news"], "quiet", "1", socketId: client.socketId).status == 200)
            #expect(try await client.silence() == nil)
            // Unsubscribed, nothing more arrives.
            try await client.send(["event": "pusher:unsubscribe", "data": ["channel": "news"]])
            #expect(try await api.trigger(["news"], "after", "1").status == 200)
            #expect(try await client.silence() == nil)
        }
    }

    @Test("presence: members by user id, member_added and member_removed once per user, hash in the success")
    func presence() async throws {
        try await withChannels { server in
            let ada = try await PusherTestClient.connect(server)
            let adaData = #"{"user_id":"ada","user_info":{"name":"Ada"}}"#
            let joined = try await ada.subscribe("presence-room", channelData: adaData)
            let presence = try JSONParser.parse(try #require(joined["data"]?.stringValue))["presence"]
            #expect(presence?["count"] == 1 && presence?["hash"]?["ada"] == ["name": "Ada"])

            let bob = try await PusherTestClient.connect(server)
            let bobData = #"{"user_id": "bob"}"#  // spaced as Python writes it: signed as received
            let bobJoined = try await bob.subscribe("presence-room", channelData: bobData)
            let both = try JSONParser.parse(try #require(bobJoined["data"]?.stringValue))["presence"]
            #expect(both?["count"] == 2 && Set(both?["ids"]?.arrayValue ?? []) == ["ada", "bob"])
            let added = try await ada.nextEvent()
            #expect(added["event"] == "pusher_internal:member_added")
            #expect(try JSONParser.parse(try #require(added["data"]?.stringValue))["user_id"] == "bob")

            // A second connection of Bob's adds no member; its leaving removes none.
            let bobAgain = try await PusherTestClient.connect(server)
            _ = try await bobAgain.subscribe("presence-room", channelData: bobData)
            #expect(try await ada.silence() == nil)
            try await bobAgain.socket.send(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]))
            #expect(try await ada.silence() == nil)
            try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-room"]])
            let removed = try await ada.nextEvent()
            #expect(removed["event"] == "pusher_internal:member_removed")
            #expect(try JSONParser.parse(try #require(removed["data"]?.stringValue)) == ["user_id": "bob"])

            let api = PusherAPIClient(server: server)
            let users = try await api.call("GET", "/apps/\(api.appId)/channels/presence-room/users")
            #expect(users.json == ["users": [["id": "ada"]]], "\(users.text)")
            let info = try await api.call(
                "GET", "/apps/\(api.appId)/channels/presence-room", query: [("info", "user_count,subscription_count")])
            #expect(info.json == ["occupied": true, "user_count": 1, "subscription_count": 1], "\(info.text)")
            // Presence needs its channel_data; a tampered one fails its signature.
            let missing = try await bob.subscribe("presence-room", auth: PusherTestClient.sign("\(bob.socketId):presence-room"))
            #expect(missing["event"] == "pusher:error")
            let tampered = try await bob.subscribe(
                "presence-room", channelData: #"{"user_id":"mallory"}"#,
                auth: PusherTestClient.sign("\(bob.socketId):presence-room:\(bobData)"))
            #expect(tampered["event"] == "pusher:error")
        }
    }

    @Test("client events: only when the app allows them, to the others on a subscribed private or presence channel")
    func clientEvents() async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.connect(server)
            _ = try await client.subscribe("private-chat")
            try await client.send(["event": "client-typing", "channel": "private-chat", "data": ["on": true]])
            let refused = try await client.nextEvent()
            #expect(refused["event"] == "pusher:error" && refused["data"]?["code"] == 4301, "\(refused)")
        }
        try await withChannels(clientEvents: true) { server in
            let ada = try await PusherTestClient.connect(server)
            let bob = try await PusherTestClient.connect(server)
            _ = try await ada.subscribe("presence-chat", channelData: #"{"user_id":"ada"}"#)
            _ = try await bob.subscribe("presence-chat", channelData: #"{"user_id":"bob"}"#)
            _ = try await ada.nextEvent()  // member_added bob
            try await ada.send(["event": "client-typing", "channel": "presence-chat", "data": ["on": true]])
            let relayed = try await bob.nextEvent()
            #expect(relayed["event"] == "client-typing" && relayed["user_id"] == "ada" && relayed["data"] == ["on": true])
            #expect(try await ada.silence() == nil, "not echoed to the sender")
            // Public channels and channels not joined take none.
            _ = try await ada.subscribe("lobby")
            try await ada.send(["event": "client-x", "channel": "lobby", "data": [:]])
            #expect(try await ada.nextEvent()["event"] == "pusher:error")
            try await ada.send(["event": "client-x", "channel": "private-other", "data": [:]])
            #expect(try await ada.nextEvent()["event"] == "pusher:error")
            // More than ten a second: 4301, then the close. The eleven go out in one write, so that they arrive
            // within the second however busy the machine is.
            var burst: [UInt8] = []
            for _ in 0..<11 {
                let text: JSONValue = ["event": "client-spam", "channel": "presence-chat", "data": [:]]
                let key = WebSocketMaskingKey((0..<4).map { _ in UInt8.random(in: 0...255) })
                burst += WebSocketFrame(opcode: .text, maskingKey: key, payload: Array(text.jsonString.utf8)).encoded()
            }
            try await bob.socket.send(raw: burst)
            var code: WebSocketCloseCode?
            while true {
                guard let frame = try await bob.socket.nextFrame() else { break }
                if frame.opcode == .close {
                    code = WebSocketCloseCode(rawValue: UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]))
                    break
                }
            }
            #expect(code?.rawValue == 4301)
        }
    }

    @Test("signin, server-to-user events and terminate; a bad signin closes with 4009")
    func signin() async throws {
        try await withChannels { server in
            let client = try await PusherTestClient.connect(server)
            // Not signed in: the user's channel is refused.
            #expect(try await client.subscribe("#server-to-user-ada")["event"] == "pusher:error")
            let userData = #"{"id":"ada"}"#
            let success = try await client.signIn(userData)
            #expect(success["event"] == "pusher:signin_success" && success["data"]?["user_data"] == .string(userData))
            #expect(try await client.subscribe("#server-to-user-ada")["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await client.subscribe("#server-to-user-bob")["event"] == "pusher:error")
            let api = PusherAPIClient(server: server)
            #expect(try await api.trigger(["#server-to-user-ada"], "notice", "hello").status == 200)
            #expect(try await client.nextEvent()["event"] == "notice")
            let terminated = try await api.call("POST", "/apps/\(api.appId)/users/ada/terminate_connections", body: [:])
            #expect(terminated.status == 200)
            #expect(try await client.socket.nextClose()?.rawValue == 4009)

            let forged = try await PusherTestClient.connect(server)
            _ = try await forged.signIn(#"{"id":"root"}"#, auth: PusherTestClient.sign("1.1::user::{\"id\":\"root\"}"))
                // the error frame; then the close
            #expect(try await forged.socket.nextClose()?.rawValue == 4009)
        }
    }

    @Test("the bird prefix: bird: and bird_internal: events on the same channels as pusher connections")
    func birdPrefix() async throws {
        try await withChannels { server in
            let bird = try await PusherTestClient.connect(server, prefix: "bird")
            let pusher = try await PusherTestClient.connect(server)
            let joined = try await bird.subscribe("presence-mixed", channelData: #"{"user_id":"b"}"#)
            #expect(joined["event"] == "bird_internal:subscription_succeeded")
            _ = try await pusher.subscribe("presence-mixed", channelData: #"{"user_id":"p"}"#)
            #expect(try await bird.nextEvent()["event"] == "bird_internal:member_added")
            try await bird.send(["event": "bird:ping", "data": [:]])
            #expect(try await bird.next()["event"] == "bird:pong")
            // pusher: events mean nothing on a bird connection.
            try await bird.send(["event": "pusher:ping", "data": [:]])
            #expect(try await bird.next()["event"] == "bird:error")
        }
    }

    @Test("HTTP API refusals: signature, timestamp, body digest, unknown app, bounds; never a 500")
    func apiRefusals() async throws {
        try await withChannels { server in
            let api = PusherAPIClient(server: server)
            let body: JSONValue = ["name": "e", "data": "d", "channels": ["c"]]
            let badSignature = try await api.call("POST", "/apps/\(api.appId)/events", body: body) { query in
                query[query.count - 1].value = String(repeating: "0", count: 64)
            }
            #expect(badSignature.status == 401 && badSignature.json?["code"] == 401 && badSignature.json?["error"] != nil)
            let stale = try await api.call("POST", "/apps/\(api.appId)/events", body: body, timestamp: Int64(Date().timeIntervalSince1970) - 3600)
            #expect(stale.status == 401)
            let digest = try await api.call("POST", "/apps/\(api.appId)/events", body: body) { query in
                if let index = query.firstIndex(where: { $0.name == "body_md5" }) { query[index].value = String(repeating: "a", count: 32) }
            }
            #expect(digest.status == 401)
            var other = api
            other.appId = "999999"
            #expect(try await other.call("POST", "/apps/999999/events", body: body).status == 404)
            let manyChannels: JSONValue = ["name": "e", "data": "d", "channels": .array((0..<101).map { .string("c\($0)") })]
            #expect(try await api.call("POST", "/apps/\(api.appId)/events", body: manyChannels).status == 400)
            let big: JSONValue = ["name": "e", "data": .string(String(repeating: "x", count: 10_241)), "channels": ["c"]]
            #expect(try await api.call("POST", "/apps/\(api.appId)/events", body: big).status == 413)
            for name in ["pusher:subscribe", "pusher_internal:member_added", "", String(repeating: "n", count: 201)] {
                let reserved: JSONValue = ["name": .string(name), "data": "d", "channels": ["c"]]
                #expect(try await api.call("POST", "/apps/\(api.appId)/events", body: reserved).status == 400, "\(name)")
            }
            let badChannel: JSONValue = ["name": "e", "data": "d", "channels": ["bad channel!"]]
            #expect(try await api.call("POST", "/apps/\(api.appId)/events", body: badChannel).status == 400)
            let batch: JSONValue = ["batch": .array((0..<11).map { _ in ["channel": "c", "name": "e", "data": "d"] })]
            #expect(try await api.call("POST", "/apps/\(api.appId)/batch_events", body: batch).status == 400)
            #expect(try await api.call("GET", "/apps/\(api.appId)/channels/public-x/users").status == 400)
            #expect(try await api.call("GET", "/apps/\(api.appId)/channels", query: [("info", "user_count")]).status == 400)
        }
    }
}
