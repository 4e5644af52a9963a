import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 8: a username, an email address and a phone number all name an account at login, so no
/// account may take another's as any of its own, and login resolves an identifier to one account.
@Suite("Security: login shadowing across username, email and phone")
struct AccountShadowingTests {
    /// Alice, with an email and a phone; returns her id.
    private func alice(_ server: TestServer) async throws -> String {
        try await server.signUpUser(
            "alice", password: "alice-pw", ["email": "alice@example.com", "mobilePhoneNumber": "13800000001"]
        ).0
    }

    @Test("Bob cannot sign up with Alice's email or phone as his username; Alice logs in by email and by phone")
    func signupShadowing() async throws {
        try await withTestServer { server in
            let id = try await alice(server)
            _ = try await server.signUpUser("dave@example.org", password: "d")
            _ = try await server.signUpUser("13900000002", password: "n")
            let cases: [(JSONValue, Int64)] = [
                (["username": "alice@example.com", "password": "bob-pw"], 202),
                (["username": "13800000001", "password": "bob-pw"], 202),
                (["username": "bob", "password": "bob-pw", "email": "dave@example.org"], 203),
                (["username": "bob", "password": "bob-pw", "mobilePhoneNumber": "13900000002"], 209),
                (["username": "bob", "password": "bob-pw", "mobilePhoneNumber": "alice"], 209),
            ]
            for (body, code) in cases {
                let response = try await server.call("POST", "/1/users", json: body)
                #expect(response.status == 400, "\(body)")
                #expect(accountErrorCode(response) == code, "\(body): \(response.text)")
            }
            for account in ["alice", "alice@example.com", "13800000001"] {
                let login = try await server.login(account, "alice-pw")
                #expect(login.status == 200, "\(account)")
                #expect(login.json?["objectId"]?.stringValue == id, "\(account)")
            }
            // Bob's own identities may equal each other.
            _ = try await server.signUpUser("13700000003", password: "bob-pw", ["mobilePhoneNumber": "13700000003"])
        }
    }

    @Test("updates cannot shadow another account either, not even with the master key")
    func updateShadowing() async throws {
        try await withTestServer { server in
            _ = try await alice(server)
            _ = try await server.signUpUser("dave@example.org", password: "d")
            let (bob, token) = try await server.signUpUser("bob", password: "bob-pw", ["email": "bob@example.com"])
            let session = [("X-Bmob-Session-Token", token)]
            let cases: [(JSONValue, Int64)] = [
                (["username": "alice@example.com"], 202),
                (["username": "13800000001"], 202),
                (["email": "dave@example.org"], 203),
                (["mobilePhoneNumber": "alice"], 209),
                (["mobilePhoneNumber": "13800000001"], 209),
            ]
            for (body, code) in cases {
                let own = try await server.call("PUT", "/1/users/\(bob)", json: body, headers: session)
                #expect(accountErrorCode(own) == code, "\(body): \(own.text)")
                let master = try await server.call("PUT", "/1/users/\(bob)", json: body, master: true)
                #expect(accountErrorCode(master) == code, "\(body): \(master.text)")
            }
            // A user's username may become its own email.
            let own = try await server.call("PUT", "/1/users/\(bob)", json: ["username": "bob@example.com"], headers: session)
            #expect(own.status == 200, "\(own.text)")
            #expect(try await server.login("alice@example.com", "alice-pw").status == 200)
        }
    }

    @Test("phone signups with a code and third-party signups are checked across fields too")
    func otherSignups() async throws {
        try await withVerificationServer { server, _ in
            _ = try await alice(server)
            let phone = uniquePhone()
            _ = try await server.signUpUser(phone, password: "squatter")
            let code = try await server.smsCode(for: phone)
            // Another account's username is the number: neither a default nor a chosen username helps.
            let defaulted = try await server.call(
                "POST", "/1/users", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(accountErrorCode(defaulted) == 202)
            let named = try await server.call(
                "POST", "/1/users",
                json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code), "username": "erin"])
            #expect(accountErrorCode(named) == 209)
            _ = try await server.signUpUser("dave@example.org", password: "d")
            let other = uniquePhone()
            let otherCode = try await server.smsCode(for: other)
            let emailTaken = try await server.call(
                "POST", "/1/users",
                json: [
                    "mobilePhoneNumber": .string(other), "smsCode": .string(otherCode), "username": "fay",
                    "email": "dave@example.org", "password": "x",
                ])
            #expect(accountErrorCode(emailTaken) == 203)
            let shadow = try await server.call(
                "POST", "/1/users",
                json: ["authData": ["qq": ["openid": "q-shadow", "access_token": "t"]], "username": "alice@example.com"])
            #expect(accountErrorCode(shadow) == 202)
            #expect(try await server.login("alice@example.com", "alice-pw").status == 200)
        }
    }

    @Test("legacy collisions stored before the rule: the password picks the one account it opens")
    func legacyCollisions() async throws {
        try await withTestServer { server in
            let aliceId = try await alice(server)
            let (bobId, _) = try await server.signUpUser("bob", password: "bob-pw")
            let (carolId, _) = try await server.signUpUser("carol", password: "carol-pw")
            // As an older server may have left them: Bob's username is Alice's email, Carol's her phone.
            try await server.forceUserFields(bobId, ["username": "alice@example.com"])
            try await server.forceUserFields(carolId, ["username": "13800000001"])

            let asAlice = try await server.login("alice@example.com", "alice-pw")
            #expect(asAlice.json?["objectId"]?.stringValue == aliceId)
            let asBob = try await server.login("alice@example.com", "bob-pw")
            #expect(asBob.json?["objectId"]?.stringValue == bobId)
            let byPhone = try await server.login("13800000001", "alice-pw")
            #expect(byPhone.json?["objectId"]?.stringValue == aliceId)
            let asCarol = try await server.login("13800000001", "carol-pw")
            #expect(asCarol.json?["objectId"]?.stringValue == carolId)
            let wrong = try await server.login("alice@example.com", "nobody's")
            #expect(accountErrorCode(wrong) == 101)

            // The same password on both accounts: the username match wins, as before.
            let master = try await server.call(
                "PUT", "/1/users/\(bobId)", json: ["password": "alice-pw"], master: true)
            #expect(master.status == 200, "\(master.text)")
            #expect(try await server.login("alice@example.com", "alice-pw").json?["objectId"]?.stringValue == bobId)
        }
    }

    @Test("near-miss identities are distinct accounts and never answer for Alice's exact ones")
    func nearMisses() async throws {
        try await withTestServer { server in
            let id = try await alice(server)
            for (index, name) in [
                " alice@example.com", "ALICE@example.com", "alice@example.com\u{0}", "+13800000001", "alice\u{200B}",
            ].enumerated() {
                let response = try await server.call(
                    "POST", "/1/users", json: ["username": .string(name), "password": .string("p\(index)")])
                if TestPostgres.isSelected, name.unicodeScalars.contains("\u{0}") {
                    // PostgreSQL text cannot hold U+0000: refused with a clear code, and nothing is stored.
                    #expect(response.status == 400, "\(response.text)")
                    #expect(response.json?["code"] == 301, "\(response.text)")
                    continue
                }
                #expect(response.status == 201, "\(name.debugDescription): \(response.text)")
            }
            for account in ["alice", "alice@example.com", "13800000001"] {
                #expect(try await server.login(account, "alice-pw").json?["objectId"]?.stringValue == id)
                #expect(accountErrorCode(try await server.login(account, "p1")) == 101)
            }
            // Mistyped identities are refused before anything is looked up.
            let typed = try await server.call(
                "POST", "/1/users", json: ["username": "x", "password": "x", "mobilePhoneNumber": ["alice"]])
            #expect(accountErrorCode(typed) == 111)
        }
    }
}
