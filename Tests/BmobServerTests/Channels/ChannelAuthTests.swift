import BmobCrypto
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The built-in channel authorization endpoint: signatures a Pusher-protocol server accepts, given only to the
/// users the app's channel rules let in.
@Suite("Channels: the built-in authorization endpoint")
struct ChannelAuthTests {
    private func signature(_ message: String) -> String {
        TestServer.channels.key + ":"
            + Hex.encode(HMACSHA256.authenticationCode(key: Array(TestServer.channels.secret.utf8), message: Array(message.utf8)))
    }

    private func form(_ server: TestServer, _ path: String, _ body: String, token: String?) async throws -> RawHTTPResponse {
        var headers = server.appHeaders + [("Content-Type", "application/x-www-form-urlencoded")]
        if let token { headers.append(("X-Bmob-Session-Token", token)) }
        return try await server.request("POST", path, headers: headers, body: Array(body.utf8))
    }

    @Test("a user's own private channel, signed for its connection; another user's refused; no session, 206")
    func privateChannels() async throws {
        try await withTestServer { server in
            let (ada, adaToken) = try await server.signUpUser("ada", password: "pw-ada")
            let (bob, _) = try await server.signUpUser("bob", password: "pw-bob")
            let own = try await form(
                server, "/1/channels/auth", "socket_id=1234.5678&channel_name=private-user-\(ada)", token: adaToken)
            #expect(own.status == 200, "\(own.text)")
            #expect(own.json == ["auth": .string(signature("1234.5678:private-user-\(ada)"))])
            let other = try await form(
                server, "/1/channels/auth", "socket_id=1234.5678&channel_name=private-user-\(bob)", token: adaToken)
            #expect(other.status == 403 && other.json?["code"] == 501, "\(other.text)")
            let anonymous = try await form(
                server, "/1/channels/auth", "socket_id=1234.5678&channel_name=private-user-\(ada)", token: nil)
            #expect(anonymous.json?["code"] == 206)
            // Bird's client sends JSON with connection_id.
            let bird = try await server.call(
                "POST", "/1/channels/auth", json: ["connection_id": "9.9", "channel_name": .string("private-user-\(ada)")],
                headers: [("X-Bmob-Session-Token", adaToken)])
            #expect(bird.json?["auth"]?.stringValue == signature("9.9:private-user-\(ada)"))
        }
    }

    @Test("presence: the member is the caller, with the fields the rule names that the public may read")
    func presenceChannels() async throws {
        var channels = TestServer.channels
        channels.rules = [
            ChannelRule(channel: "presence-room-*", users: .any, userInfo: ["nickname", "email", "password"]),
            ChannelRule(channel: "private-mods-*", users: .role("Mods")),
        ]
        let server = try await TestServer.start(channels: channels)
        do {
            let (ada, token) = try await server.signUpUser("ada", password: "pw-ada", ["nickname": "Ada", "email": "ada@example.com"])
            let answer = try await form(server, "/1/channels/auth", "socket_id=1.2&channel_name=presence-room-7", token: token)
            #expect(answer.status == 200, "\(answer.text)")
            let channelData = try #require(answer.json?["channel_data"]?.stringValue)
            #expect(answer.json?["member_data"]?.stringValue == channelData)
            #expect(try JSONParser.parse(channelData) == ["user_id": .string(ada), "user_info": ["nickname": "Ada"]])
            #expect(answer.json?["auth"]?.stringValue == signature("1.2:presence-room-7:\(channelData)"))
            // A role rule: only the role's members.
            let refused = try await form(server, "/1/channels/auth", "socket_id=1.2&channel_name=private-mods-a", token: token)
            #expect(refused.status == 403)
            let role = try await server.call(
                "POST", "/1/roles",
                json: ["name": "Mods", "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(ada)]]]],
                master: true)
            #expect(role.status == 201, "\(role.text)")
            let admitted = try await form(server, "/1/channels/auth", "socket_id=1.2&channel_name=private-mods-a", token: token)
            #expect(admitted.status == 200, "\(admitted.text)")
            // The default rules no longer apply once the app sets its own.
            let own = try await form(server, "/1/channels/auth", "socket_id=1.2&channel_name=private-user-\(ada)", token: token)
            #expect(own.status == 403)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("signin: user_data names the caller, signed for its connection")
    func signin() async throws {
        try await withTestServer { server in
            let (ada, token) = try await server.signUpUser("ada", password: "pw-ada")
            let answer = try await form(server, "/1/channels/auth/member", "socket_id=77.88", token: token)
            let userData = try #require(answer.json?["user_data"]?.stringValue)
            #expect(try JSONParser.parse(userData) == ["id": .string(ada)])
            #expect(answer.json?["auth"]?.stringValue == signature("77.88::user::\(userData)"))
            #expect(try await form(server, "/1/channels/auth/member", "socket_id=77.88", token: nil).json?["code"] == 206)
        }
    }

    @Test("Pusher's own server library and Python's hmac accept the endpoint's signatures")
    func independentPeerAgrees() async throws {
        var channels = TestServer.channels
        channels.rules = [
            ChannelRule(channel: "private-user-{userId}", users: .own),
            ChannelRule(channel: "presence-lobby", users: .any, userInfo: ["nickname"]),
        ]
        let server = try await TestServer.start(channels: channels)
        do {
            let (ada, token) = try await server.signUpUser("ada", password: "pw-ada", ["nickname": "Ada Lovelace ✓"])
            let privateAnswer = try await form(
                server, "/1/channels/auth", "socket_id=123.456&channel_name=private-user-\(ada)", token: token)
            let presenceAnswer = try await form(
                server, "/1/channels/auth", "socket_id=123.456&channel_name=presence-lobby", token: token)
            let signinAnswer = try await form(server, "/1/channels/auth/member", "socket_id=123.456", token: token)
            let spec: JSONValue = [
                "appId": .string(channels.appId), "key": .string(channels.key), "secret": .string(channels.secret),
                "checks": [
                    ["kind": "private", "socket": "123.456", "channel": .string("private-user-\(ada)"), "answer": privateAnswer.json ?? .null],
                    ["kind": "presence", "socket": "123.456", "channel": "presence-lobby", "answer": presenceAnswer.json ?? .null],
                    ["kind": "signin", "socket": "123.456", "answer": signinAnswer.json ?? .null],
                ],
            ]
            let output = try await PythonPeer.run("pusher_auth_peer.py", [spec.jsonString])
            #expect(try JSONParser.parse(output) == [true, true, true], "\(output)")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("hostile input: socket ids and channel names that could sign something else are refused")
    func hostileInput() async throws {
        try await withTestServer { server in
            let (ada, token) = try await server.signUpUser("ada", password: "pw-ada")
            let channel = "private-user-\(ada)"
            for socket in ["1234.5678:private-user-x", "1.2.3", "abc.def", "12", ".1", "1.", "", String(repeating: "1", count: 70) + ".1"] {
                let answer = try await form(
                    server, "/1/channels/auth", "socket_id=\(queryEncoded(socket))&channel_name=\(channel)", token: token)
                #expect(answer.json?["code"] == 107, "\(socket): \(answer.text)")
            }
            for name in ["public-room", "private-user-\(ada):extra", "private-encrypted-x", String(repeating: "a", count: 200), "private-é"] {
                let answer = try await form(
                    server, "/1/channels/auth", "socket_id=1.2&channel_name=\(queryEncoded(name))", token: token)
                #expect(answer.json?["code"] == 107 || answer.status == 403, "\(name): \(answer.text)")
                #expect(answer.json?["auth"] == nil)
            }
            #expect(try await form(server, "/1/channels/auth", "channel_name=\(channel)", token: token).json?["code"] == 118)
            let huge = try await form(
                server, "/1/channels/auth", "socket_id=1.2&channel_name=" + String(repeating: "x", count: 20_000), token: token)
            #expect(huge.status == 413)
        }
    }
}
