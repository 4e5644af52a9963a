import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("REST third-party login (authData)")
struct AuthDataRoutesTests {
    @Test("201 for a new account, 200 when linked; link, unlink and 208 on conflicts or unknown platforms")
    func flows() async throws {
        try await withTestServer { server in
            let first = try await server.call("POST", "/1/users", json: ["authData": ["qq": ["openid": "q1", "access_token": "t"]], "nickname": "Q"])
            #expect(first.status == 201, "\(first.text)")
            let id = try #require(first.json?["objectId"]?.stringValue)
            let token = try #require(first.json?["sessionToken"]?.stringValue)
            #expect(first.json?["nickname"] == "Q")
            #expect(first.json?["authData"]?["qq"]?["id"] == "q1")
            #expect(first.json?["username"]?.stringValue?.isEmpty == false)

            let second = try await server.call("POST", "/1/users", json: ["authData": ["qq": ["openid": "q1", "access_token": "t2"]]])
            #expect(second.status == 200)
            #expect(second.json?["objectId"]?.stringValue == id)
            #expect(second.json?["sessionToken"]?.stringValue != token)

            let session = [("X-Bmob-Session-Token", token)]
            // Link weibo, then a second user may not take it.
            var response = try await server.call("PUT", "/1/users/\(id)", json: ["authData": ["weibo": ["uid": "w1"]]], headers: session)
            #expect(response.status == 200, "\(response.text)")
            let other = try await server.call("POST", "/1/users", json: ["username": "other", "password": "pw"])
            let otherSession = [("X-Bmob-Session-Token", other.json?["sessionToken"]?.stringValue ?? "")]
            let otherId = other.json?["objectId"]?.stringValue ?? ""
            response = try await server.call("PUT", "/1/users/\(otherId)", json: ["authData": ["weibo": ["uid": "w1"]]], headers: otherSession)
            #expect(response.json?["code"] == 208)
            // Linking needs the user's session.
            response = try await server.call("PUT", "/1/users/\(id)", json: ["authData": ["weixin": ["openid": "x"]]])
            #expect(response.json?["code"] == 206)
            // Unlink.
            response = try await server.call("PUT", "/1/users/\(id)", json: ["authData": ["weibo": nil]], headers: session)
            #expect(response.status == 200)
            let user = try await server.call("GET", "/1/users/\(id)", headers: session)
            #expect(user.json?["authData"]?["weibo"] == nil)
            #expect(user.json?["authData"]?["qq"] != nil)

            // Errors: unknown platform, no id, two platforms at once, not an object.
            let bad: [JSONValue] = [
                ["authData": ["myspace": ["id": "1"]]], ["authData": ["qq": ["access_token": "t"]]],
                ["authData": ["qq": ["openid": "1"], "weibo": ["uid": "2"]]], ["authData": "qq"],
            ]
            for body in bad {
                let answer = try await server.call("POST", "/1/users", json: body)
                #expect(answer.json?["code"] == 208, "\(body): \(answer.text)")
            }
        }
    }
}

@Suite("REST third-party login with an OpenID Connect provider")
struct OIDCLoginRoutesTests {
    @Test("an app configured with an oidc provider logs in by id token; a forged token is 208")
    func oidcLogin() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-oidc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = AppRegistry(dataDirectory: folder.path)
        let jwks = try JSONParser.parse(OIDCFixtures.jwksK1)
        _ = try registry.create(
            name: "OIDC", applicationId: TestServer.applicationId, restKey: TestServer.restKey,
            masterKey: TestServer.masterKey, secretKey: TestServer.secretKey,
            authProviders: ["apple": ["type": "oidc", "issuer": .string(OIDCFixtures.issuer), "audience": .string(OIDCFixtures.audience), "jwks": jwks]],
            now: OIDCFixtures.now / 1000)
        let server = try await TestServer.start(dataDirectory: folder, clock: .fixed(OIDCFixtures.now))
        defer { Task { await server.stop() } }
        let token = OIDCFixtures.valid.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        let first = try await server.call("POST", "/1/users", json: ["authData": ["apple": ["id_token": .string(token)]]])
        #expect(first.status == 201, "\(first.text)")
        #expect(first.json?["authData"]?["apple"]?["id"] == "user-42")
        let again = try await server.call("POST", "/1/users", json: ["authData": ["apple": ["id_token": .string(token)]]])
        #expect(again.status == 200)
        #expect(again.json?["objectId"] == first.json?["objectId"])
        let forged = try await server.call("POST", "/1/users", json: ["authData": ["apple": ["id_token": .string(token + "x")]]])
        #expect(forged.json?["code"] == 208)
        // This app has no trust provider: claiming a QQ account is refused.
        let qq = try await server.call("POST", "/1/users", json: ["authData": ["qq": ["openid": "anything"]]])
        #expect(qq.json?["code"] == 208)
    }
}
