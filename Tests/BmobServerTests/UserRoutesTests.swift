import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("REST users and sessions")
struct UserRoutesTests {
    /// Signs up and returns (objectId, sessionToken).
    private func signUp(_ server: TestServer, _ fields: JSONValue) async throws -> (String, String) {
        var extra = fields.objectValue ?? [:]
        let username = extra.removeValue(forKey: "username")?.stringValue ?? ""
        let password = extra.removeValue(forKey: "password")?.stringValue ?? ""
        return try await server.signUpUser(username, password: password, extra)
    }

    private func session(_ token: String) -> [(String, String)] {
        [("X-Bmob-Session-Token", token)]
    }

    @Test("signup answers 201 with objectId, createdAt and a 128-bit session token; the password is never returned")
    func signUp() async throws {
        try await withTestServer { server in
            let response = try await server.call(
                "POST", "/1/users", json: ["username": "alice", "password": "s3cret", "email": "a@example.com", "age": 30])
            #expect(response.status == 201)
            let json = try #require(response.json)
            let token = try #require(json["sessionToken"]?.stringValue)
            #expect(token.count >= 32)
            #expect(json["createdAt"]?.stringValue != nil)
            let id = try #require(json["objectId"]?.stringValue)

            let read = try await server.call("GET", "/1/users/\(id)")
            #expect(read.status == 200)
            #expect(read.json?["username"] == "alice")
            #expect(read.json?["age"] == 30)
            #expect(read.json?["password"] == nil)
            let listed = try await server.call("GET", "/1/users?where=" + queryEncoded(#"{"username":"alice"}"#))
            #expect(listed.json?["results"]?.arrayValue?.count == 1)
            #expect(listed.text.contains("s3cret") == false)
            #expect(listed.json?["results"]?.arrayValue?.first?["password"] == nil)
            // Nothing readable through /1/classes either, and the journal does not hold it.
            let raw = try await server.call("GET", "/1/classes/_User", master: true)
            #expect(raw.text.contains("s3cret") == false && raw.text.contains("scrypt") == false)
        }
    }

    @Test("duplicates: 202 username, 203 email, 209 phone; 108 without username or password; 111 for a non-string")
    func signUpErrors() async throws {
        try await withTestServer { server in
            _ = try await signUp(server, ["username": "bob", "password": "pw", "email": "bob@example.com", "mobilePhoneNumber": "13800138000"])
            let cases: [(JSONValue, Int)] = [
                (["username": "bob", "password": "x"], 202),
                (["username": "bob2", "password": "x", "email": "bob@example.com"], 203),
                (["username": "bob3", "password": "x", "mobilePhoneNumber": "13800138000"], 209),
                (["username": "nopassword"], 108),
                (["password": "nousername"], 108),
                (["username": 42, "password": "x"], 108),
                (["username": "typed", "password": "x", "email": 7], 111),
            ]
            for (body, code) in cases {
                let response = try await server.call("POST", "/1/users", json: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.json?["code"]?.int64Value == Int64(code), "\(body): \(response.text)")
            }
        }
    }

    @Test("login by username, email or phone, GET and POST; wrong password and unknown account are 101")
    func logIn() async throws {
        try await withTestServer { server in
            let (id, _) = try await signUp(server, ["username": "carol", "password": "pa ss+word", "email": "c@example.com", "mobilePhoneNumber": "13900000000"])
            for account in ["carol", "c@example.com", "13900000000"] {
                let get = try await server.call("GET", "/1/login?username=\(queryEncoded(account))&password=\(queryEncoded("pa ss+word"))")
                #expect(get.status == 200, "\(account): \(get.text)")
                #expect(get.json?["objectId"]?.stringValue == id)
                #expect(get.json?["sessionToken"]?.stringValue != nil)
                #expect(get.json?["password"] == nil)
                let post = try await server.call("POST", "/1/login", json: ["username": .string(account), "password": "pa ss+word"])
                #expect(post.status == 200)
                #expect(post.json?["username"] == "carol")
            }
            for (account, password) in [("carol", "wrong"), ("nobody", "pa ss+word"), ("", "")] {
                let response = try await server.call("POST", "/1/login", json: ["username": .string(account), "password": .string(password)])
                #expect(response.status == 400)
                #expect(response.json?["code"]?.int64Value == (account.isEmpty ? 108 : 101))
            }
        }
    }

    @Test("checkSession answers ok/fail with 200; logout ends the session server side")
    func sessions() async throws {
        try await withTestServer { server in
            let (id, token) = try await signUp(server, ["username": "dave", "password": "pw"])
            var check = try await server.call("GET", "/1/checkSession/\(id)", headers: session(token))
            #expect(check.status == 200 && check.json?["msg"] == "ok")
            check = try await server.call("GET", "/1/checkSession/\(id)", headers: session("not-a-token"))
            #expect(check.status == 200 && check.json?["msg"] == "fail")
            check = try await server.call("GET", "/1/checkSession/someoneelse", headers: session(token))
            #expect(check.json?["msg"] == "fail")

            let logout = try await server.call("POST", "/1/logout", json: ["objectId": .string(id)], headers: session(token))
            #expect(logout.status == 200 && logout.json?["msg"] == "ok")
            check = try await server.call("GET", "/1/checkSession/\(id)", headers: session(token))
            #expect(check.json?["msg"] == "fail")
            let again = try await server.call("POST", "/1/logout", headers: session(token))
            #expect(again.json?["code"] == 211)
        }
    }

    @Test("update and delete need the user's own session or the master key (206)")
    func ownership() async throws {
        try await withTestServer { server in
            let (erin, erinToken) = try await signUp(server, ["username": "erin", "password": "pw"])
            let (_, frankToken) = try await signUp(server, ["username": "frank", "password": "pw"])
            var response = try await server.call("PUT", "/1/users/\(erin)", json: ["nickname": "E"])
            #expect(response.json?["code"] == 206)
            response = try await server.call("PUT", "/1/users/\(erin)", json: ["nickname": "E"], headers: session(frankToken))
            #expect(response.json?["code"] == 206)
            response = try await server.call("PUT", "/1/users/\(erin)", json: ["nickname": "E", "password": "ignored"], headers: session(erinToken))
            #expect(response.status == 200 && response.json?["updatedAt"] != nil)
            #expect(try await server.call("GET", "/1/users/\(erin)").json?["nickname"] == "E")
            // A PUT of password does not change it.
            let login = try await server.call("POST", "/1/login", json: ["username": "erin", "password": "pw"])
            #expect(login.status == 200)
            // Taking another user's username is 202.
            response = try await server.call("PUT", "/1/users/\(erin)", json: ["username": "frank"], headers: session(erinToken))
            #expect(response.json?["code"] == 202)
            // Writes through /1/classes/_User are refused.
            response = try await server.call("PUT", "/1/classes/_User/\(erin)", json: ["nickname": "X"])
            #expect(response.status == 400)

            response = try await server.call("DELETE", "/1/users/\(erin)", headers: session(frankToken))
            #expect(response.json?["code"] == 206)
            response = try await server.call("DELETE", "/1/users/\(erin)", headers: session(erinToken))
            #expect(response.status == 200)
            #expect(try await server.call("GET", "/1/users/\(erin)").json?["code"] == 101)
            // Its session died with it.
            let check = try await server.call("GET", "/1/checkSession/\(erin)", headers: session(erinToken))
            #expect(check.json?["msg"] == "fail")
            // The master key may change anyone.
            let (gina, _) = try await signUp(server, ["username": "gina", "password": "pw"])
            response = try await server.call("PUT", "/1/users/\(gina)", json: ["password": "newpw"], master: true)
            #expect(response.status == 200)
            #expect(try await server.call("POST", "/1/login", json: ["username": "gina", "password": "newpw"]).status == 200)
        }
    }

    @Test("updateUserPassword (PUT and POST): 210 for a wrong old password; other sessions end, this one stays")
    func updatePassword() async throws {
        try await withTestServer { server in
            let (id, token) = try await signUp(server, ["username": "hank", "password": "one"])
            let other = try #require(try await server.call("POST", "/1/login", json: ["username": "hank", "password": "one"]).json?["sessionToken"]?.stringValue)
            var response = try await server.call("PUT", "/1/updateUserPassword/\(id)", json: ["oldPassword": "bad", "newPassword": "two"], headers: session(token))
            #expect(response.json?["code"] == 210)
            response = try await server.call("PUT", "/1/updateUserPassword/\(id)", json: ["oldPassword": "one", "newPassword": "two"])
            #expect(response.json?["code"] == 206)
            response = try await server.call("PUT", "/1/updateUserPassword/\(id)", json: ["oldPassword": "one", "newPassword": "two"], headers: session(token))
            #expect(response.status == 200 && response.json?["msg"] == "ok")
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(token)).json?["msg"] == "ok")
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(other)).json?["msg"] == "fail")
            #expect(try await server.call("POST", "/1/login", json: ["username": "hank", "password": "one"]).json?["code"] == 101)
            #expect(try await server.call("POST", "/1/login", json: ["username": "hank", "password": "two"]).status == 200)
            response = try await server.call("POST", "/1/updateUserPassword/\(id)", json: ["oldPassword": "two", "newPassword": "three"], headers: session(token))
            #expect(response.status == 200)
        }
    }

    @Test("sessions expire after their lifetime")
    func expiry() async throws {
        let clock = TestClock(start: 1_800_000_000_000)
        try await withTestServer(clock: clock.serverClock) { server in
            let (id, token) = try await signUp(server, ["username": "ivy", "password": "pw"])
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(token)).json?["msg"] == "ok")
            clock.advance(milliseconds: 7 * 24 * 3600 * 1000 + 1)
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(token)).json?["msg"] == "fail")
            #expect(try await server.call("PUT", "/1/users/\(id)", json: ["a": 1], headers: session(token)).json?["code"] == 206)
        }
    }

    @Test("batch takes /1/users paths: signup, update with the element's token, delete; 206 without it")
    func batch() async throws {
        try await withTestServer { server in
            let (id, token) = try await signUp(server, ["username": "batcher", "password": "pw"])
            let response = try await server.call("POST", "/1/batch", json: ["requests": [
                ["method": "POST", "path": "/1/users", "body": ["username": "made-in-batch", "password": "pw"]],
                ["method": "PUT", "path": .string("/1/users/\(id)"), "body": ["nickname": "B"], "token": .string(token)],
                ["method": "PUT", "path": .string("/1/users/\(id)"), "body": ["nickname": "C"]],
                ["method": "DELETE", "path": .string("/1/users/\(id)"), "token": .string(token)],
            ]])
            let items = try #require(response.json?.arrayValue)
            #expect(items.count == 4)
            #expect(items[0]["success"]?["sessionToken"]?.stringValue != nil)
            #expect(items[1]["success"]?["updatedAt"] != nil)
            #expect(items[2]["error"]?["code"] == 206)
            #expect(items[3]["success"]?["msg"] == "ok")
            #expect(try await server.call("GET", "/1/users/\(id)").json?["code"] == 101)
            #expect(try await server.call("POST", "/1/login", json: ["username": "made-in-batch", "password": "pw"]).status == 200)
        }
    }

    @Test("sessions are listed per user and revoked one by one; the master key sees any user's")
    func sessionList() async throws {
        try await withTestServer { server in
            let (id, token) = try await signUp(server, ["username": "lister", "password": "pw"])
            let second = try #require(try await server.call("POST", "/1/login", json: ["username": "lister", "password": "pw"]).json?["sessionToken"]?.stringValue)
            let listed = try await server.call("GET", "/1/users/\(id)/sessions", headers: session(token))
            let sessions = try #require(listed.json?["results"]?.arrayValue, "\(listed.status) \(listed.text)")
            #expect(sessions.count == 2)
            #expect(sessions.filter { $0["current"] == true }.count == 1)
            #expect(listed.text.contains(token) == false && listed.text.contains(second) == false)
            #expect(try await server.call("GET", "/1/users/\(id)/sessions").json?["code"] == 206)
            #expect(try await server.call("GET", "/1/users/\(id)/sessions", master: true).json?["results"]?.arrayValue?.count == 2)

            let other = try #require(sessions.first { $0["current"] == false }?["objectId"]?.stringValue)
            let revoked = try await server.call("DELETE", "/1/users/\(id)/sessions/\(other)", headers: session(token))
            #expect(revoked.json?["msg"] == "ok")
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(second)).json?["msg"] == "fail")
            #expect(try await server.call("GET", "/1/checkSession/\(id)", headers: session(token)).json?["msg"] == "ok")
            #expect(try await server.call("DELETE", "/1/users/\(id)/sessions/\(other)", headers: session(token)).json?["code"] == 101)
        }
    }

    @Test("malformed auth input: oversized or mistyped fields and bad tokens get Bmob errors")
    func malformedInput() async throws {
        try await withTestServer { server in
            let long = String(repeating: "x", count: 300)
            let cases: [(JSONValue, Int64)] = [
                (["username": .string(long), "password": "pw"], 301),
                (["username": "ok", "password": .string(String(repeating: "p", count: 2000))], 301),
                (["username": "ok2", "password": "pw", "email": .string(long + "@example.com")], 301),
                (["username": "ok3", "password": ["nested": true]], 108),
                (["username": "ok4", "password": "pw", "mobilePhoneNumber": 138], 111),
            ]
            for (body, code) in cases {
                let response = try await server.call("POST", "/1/users", json: body)
                #expect(response.json?["code"]?.int64Value == code, "\(body): \(response.text)")
            }
            let login = try await server.call("POST", "/1/login", json: ["username": .string(long), "password": "pw"])
            #expect(login.json?["code"] == 101)
            for token in ["", " ", String(repeating: "a", count: 5000), "\u{0}", "🙂"] {
                let response = try await server.call("GET", "/1/checkSession/someone", headers: [("X-Bmob-Session-Token", token)])
                #expect(response.status == 200 || response.status == 400, "\(token.count)")
                #expect(response.json?["msg"] == "fail" || response.json?["code"] != nil)
            }
        }
    }
}
