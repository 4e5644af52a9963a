import BmobServer
import BmobTesting
import BmobWire
import Testing

@Suite("Native user routes")
struct NativeUserRoutesTests {
    @Test("signup, login, check_session, update, update_user_password, logout over /8/, readable through REST")
    func lifecycle() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let signed = try await client.data("signup", ["c": "_User", "data": ["username": "nat", "password": "pw1", "score": 1]])
            let id = try #require(signed["objectId"]?.stringValue)
            let token = try #require(signed["sessionToken"]?.stringValue)
            #expect(signed["username"] == "nat")
            #expect(signed["password"] == nil)

            let login = try await client.data("login", ["c": "_User", "data": ["username": "nat", "password": "pw1"]])
            #expect(login["objectId"]?.stringValue == id)
            let second = try #require(login["sessionToken"]?.stringValue)
            #expect(second != token)

            let wrong = try await client.call("login", ["c": "_User", "data": ["username": "nat", "password": "nope"]])
            #expect(wrong.code == 101)
            let missing = try await client.call("login", ["c": "_User", "data": ["username": "nat"]])
            #expect(missing.code == 108)

            var check = try await client.data("check_session", ["c": "_User", "objectId": .string(id), "sessionToken": .string(token)])
            #expect(check["msg"] == "ok")
            check = try await client.data("check_session", ["c": "_User", "objectId": .string(id), "sessionToken": "zzz"])
            #expect(check["msg"] == "fail")

            let denied = try await client.call("update", ["c": "_User", "objectId": .string(id), "data": ["score": 2]])
            #expect(denied.code == 206)
            let updated = try await client.data("update", ["c": "_User", "objectId": .string(id), "data": ["score": 2], "sessionToken": .string(token)])
            #expect(updated["updatedAt"] != nil)
            #expect(try await server.call("GET", "/1/users/\(id)").json?["score"] == 2)

            let badOld = try await client.call("update_user_password", [
                "c": "_User", "objectId": .string(id), "sessionToken": .string(token),
                "data": ["oldPassword": "no", "newPassword": "pw2"],
            ])
            #expect(badOld.code == 210)
            _ = try await client.data("update_user_password", [
                "c": "_User", "objectId": .string(id), "sessionToken": .string(token),
                "data": ["oldPassword": "pw1", "newPassword": "pw2"],
            ])
            check = try await client.data("check_session", ["c": "_User", "objectId": .string(id), "sessionToken": .string(second)])
            #expect(check["msg"] == "fail")

            let out = try await client.data("logout", ["c": "_User", "data": ["objectId": .string(id)], "sessionToken": .string(token)])
            #expect(out["msg"] == "ok")
            check = try await client.data("check_session", ["c": "_User", "objectId": .string(id), "sessionToken": .string(token)])
            #expect(check["msg"] == "fail")
            let again = try await client.call("logout", ["c": "_User", "data": ["objectId": .string(id)], "sessionToken": .string(token)])
            #expect(again.code == 211)

            // REST login with the new password; create with c=_User signs up.
            #expect(try await server.call("POST", "/1/login", json: ["username": "nat", "password": "pw2"]).status == 200)
            let viaCreate = try await client.data("create", ["c": "_User", "data": ["username": "nat2", "password": "x"]])
            #expect(viaCreate["sessionToken"]?.stringValue != nil)
        }
    }
}
