import BirdRealtime
import BmobServer
import BmobTesting
import BmobWire
import Dispatch
import Foundation

/// An in-process Bmob server with channels for BirdRealtime tests: the test app's channel credentials with client
/// events on, rules that let any user into `presence-room-*` and `private-room-*`, and helpers to make users,
/// clients, and signed HTTP API calls.
struct BirdServer {
    let server: TestServer

    static let channels: AppChannels = {
        var channels = AppChannels(
            appId: TestServer.channels.appId, key: TestServer.channels.key, secret: TestServer.channels.secret,
            clientEvents: true)
        channels.rules =
            [
                ChannelRule(channel: "presence-room-*", users: .any, userInfo: ["nickname"]),
                ChannelRule(channel: "private-room-*", users: .any),
            ] + ChannelRule.defaults
        return channels
    }()

    /// Runs `body` with a fresh server, always stopping it.
    static func with(_ body: (BirdServer) async throws -> Void) async throws {
        let server = try await TestServer.start(channels: channels)
        do {
            try await body(BirdServer(server: server))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    var port: Int { server.port }
    var wsHost: String { "127.0.0.1:\(port)" }
    var authEndpoint: URL { URL(string: "http://127.0.0.1:\(port)/1/channels/auth")! }
    var memberAuthEndpoint: URL { URL(string: "http://127.0.0.1:\(port)/1/channels/auth/member")! }

    /// The app's headers plus a user's session token, for the built-in auth endpoints.
    func authHeaders(token: String?) -> [String: String] {
        var headers = ["X-Bmob-Application-Id": TestServer.applicationId, "X-Bmob-REST-API-Key": TestServer.restKey]
        if let token { headers["X-Bmob-Session-Token"] = token }
        return headers
    }

    /// Signs a user up; returns its objectId and session token.
    func signUp(_ username: String, nickname: String? = nil) async throws -> (id: String, token: String) {
        var body: [String: JSONValue] = ["username": .string(username), "password": .string("pw-\(username)")]
        if let nickname { body["nickname"] = .string(nickname) }
        let response = try await server.request(
            "POST", "/1/users", headers: server.appHeaders + [("Content-Type", "application/json")],
            body: JSONValue.object(body).jsonBytes)
        guard response.status == 201, let id = response.json?["objectId"]?.stringValue,
            let token = response.json?["sessionToken"]?.stringValue
        else { throw TestFailure("signup failed: \(response.status) \(response.text)") }
        return (id, token)
    }

    /// Options for a client of this server, authorized as the user with `token`.
    func options(
        appKey: String = TestServer.channels.key, token: String? = nil,
        queue: DispatchQueue = DispatchQueue(label: "bird-test"),
        authorizer: BirdRealtimeOptions.Authorizer? = nil
    ) -> BirdRealtimeOptions {
        BirdRealtimeOptions(
            appKey: appKey, wsHost: wsHost, deliveryQueue: queue, authEndpoint: authEndpoint,
            authHeaders: authHeaders(token: token), authorizer: authorizer, memberAuthEndpoint: memberAuthEndpoint,
            allowInsecure: true)
    }

    /// A signed HTTP API call (as Pusher's server libraries sign them).
    func api(_ method: String, _ path: String, body: JSONValue? = nil) async throws -> RawHTTPResponse {
        let channels = TestServer.channels
        let bytes = body.map(\.jsonBytes) ?? []
        var query: [(name: String, value: String)] = [
            ("auth_key", channels.key), ("auth_timestamp", String(Int64(Date().timeIntervalSince1970))),
            ("auth_version", "1.0"), ("body_md5", PusherSignatures.bodyMD5(bytes)),
        ]
        query.append(
            (
                "auth_signature",
                PusherSignatures.apiSignature(secret: channels.secret, method: method, path: path, query: query)
            ))
        let target = path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return try await server.request(
            method, target, headers: body == nil ? [] : [("Content-Type", "application/json")],
            body: body == nil ? nil : bytes)
    }

    /// Publishes `event` with the JSON text `data` on `channel`.
    func publish(_ channel: String, _ event: String, _ data: String) async throws {
        let body: JSONValue = ["name": .string(event), "data": .string(data), "channels": [.string(channel)]]
        let response = try await api("POST", "/apps/\(TestServer.channels.appId)/events", body: body)
        guard response.status == 200 else { throw TestFailure("publish failed: \(response.status) \(response.text)") }
    }

    /// Terminates the connections of a signed-in member.
    func terminate(_ userId: String) async throws {
        let response = try await api(
            "POST", "/apps/\(TestServer.channels.appId)/users/\(userId)/terminate_connections", body: [:])
        guard response.status == 200 else { throw TestFailure("terminate failed: \(response.status) \(response.text)") }
    }

    /// A presence or private authorization signed with the test secret, as an app's own backend would.
    static func sign(connectionId: String, channel: String, memberData: String? = nil) -> BirdAuthorization {
        let name = try! PusherChannelName(validating: channel)
        let socket = try! PusherSocketId(validating: connectionId)
        let auth = PusherSignatures.channelAuth(
            key: TestServer.channels.key, secret: TestServer.channels.secret, socketId: socket, channel: name,
            channelData: memberData)
        return BirdAuthorization(auth: auth, memberData: memberData)
    }
}
