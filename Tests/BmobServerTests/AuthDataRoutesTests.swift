import BmobServer
import BmobTesting
import BmobWire
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
            let user = try await server.call("GET", "/1/users/\(id)")
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
