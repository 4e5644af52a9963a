import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("REST phone signup, login and password reset with SMS codes")
struct PhoneLoginTests {
    private func bmobCode(_ response: RawHTTPResponse) -> Int64? { response.json?["code"]?.int64Value }

    @Test("POST /1/users with a code: a new user (200, username = phone, mobilePhoneVerified), then the same user")
    func signUpThenLogIn() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            let code = try await server.smsCode(for: phone)
            let created = try await server.call(
                "POST", "/1/users",
                json: [
                    "mobilePhoneNumber": .string(phone), "smsCode": .string(code), "nickname": "Ann",
                    "email": "ann@example.com",
                ])
            #expect(created.status == 200)
            let user = try #require(created.json)
            let id = try #require(user["objectId"]?.stringValue)
            let token = try #require(user["sessionToken"]?.stringValue)
            #expect(user["username"]?.stringValue == phone)
            #expect(user["mobilePhoneNumber"]?.stringValue == phone)
            #expect(user["mobilePhoneVerified"] == true)
            #expect(user["emailVerified"] == false)
            #expect(user["nickname"] == "Ann")
            #expect(user["smsCode"] == nil && user["password"] == nil)
            #expect(user["createdAt"]?.stringValue != nil)
            #expect(try await server.sessionIsValid(id, token))

            // The code is used up.
            let reused = try await server.call(
                "POST", "/1/users", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(bmobCode(reused) == 207)

            // A new code logs the same user in, through /1/users and /1/login.
            clock.advance(milliseconds: 60_000)
            let second = try await server.smsCode(for: phone)
            let again = try await server.call(
                "POST", "/1/users",
                json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(second), "nickname": "ignored"])
            #expect(again.status == 200)
            #expect(again.json?["objectId"]?.stringValue == id)
            #expect(again.json?["nickname"] == "Ann")
            #expect(again.json?["sessionToken"]?.stringValue != token)
            clock.advance(milliseconds: 60_000)
            let third = try await server.smsCode(for: phone)
            let login = try await server.call(
                "POST", "/1/login", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(third)])
            #expect(login.status == 200)
            #expect(login.json?["objectId"]?.stringValue == id)
            let users = try await server.call(
                "GET", "/1/users?where=" + queryEncoded(#"{"mobilePhoneNumber":"\#(phone)"}"#), master: true)
            #expect(users.json?["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("a password signup with a phone becomes mobilePhoneVerified on its first code login")
    func existingPasswordUser() async throws {
        try await withVerificationServer { server, _ in
            let phone = uniquePhone()
            let (id, _) = try await server.signUpUser("dora", password: "pw", ["mobilePhoneNumber": .string(phone)])
            let code = try await server.smsCode(for: phone)
            let login = try await server.call(
                "POST", "/1/login", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(login.json?["objectId"]?.stringValue == id)
            #expect(login.json?["mobilePhoneVerified"] == true)
            #expect(try await server.call("GET", "/1/users/\(id)").json?["mobilePhoneVerified"] == true)
            // The password still works.
            #expect(try await server.passwordLogin("dora", "pw").status == 200)
        }
    }

    @Test("/1/login with a code: unknown number 101 (the code stays usable), wrong code 207, missing number 118")
    func loginErrors() async throws {
        try await withVerificationServer { server, _ in
            let phone = uniquePhone()
            let code = try await server.smsCode(for: phone)
            let unknown = try await server.call(
                "POST", "/1/login", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(unknown.status == 400)
            #expect(bmobCode(unknown) == 101)
            let wrong = try await server.call(
                "POST", "/1/login",
                json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code == "111111" ? "222222" : "111111")])
            #expect(bmobCode(wrong) == 207)
            let missing = try await server.call("POST", "/1/login", json: ["smsCode": .string(code)])
            #expect(bmobCode(missing) == 118)
            // The code was not used by the failed login: it signs up.
            let signUp = try await server.call(
                "POST", "/1/users", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(signUp.status == 200)
        }
    }

    @Test("a phone signup whose username is taken is 202, and a new user can set a password")
    func signUpConflictsAndPassword() async throws {
        try await withVerificationServer { server, _ in
            let phone = uniquePhone()
            let (squatter, _) = try await server.signUpUser(phone, password: "x")
            let code = try await server.smsCode(for: phone)
            let taken = try await server.call(
                "POST", "/1/users", json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)])
            #expect(bmobCode(taken) == 202)
            // Another account's username is the number, so the number cannot be this user's phone (209) …
            let shadowing = try await server.call(
                "POST", "/1/users",
                json: ["mobilePhoneNumber": .string(phone), "smsCode": .string(code), "username": "erin"])
            #expect(bmobCode(shadowing) == 209)
            // … until that account lets go of it. The failed signups did not use the code.
            #expect(
                try await server.call("PUT", "/1/users/\(squatter)", json: ["username": "renamed"], master: true).status
                    == 200)
            let named = try await server.call(
                "POST", "/1/users",
                json: [
                    "mobilePhoneNumber": .string(phone), "smsCode": .string(code), "username": "erin",
                    "password": "secret",
                ])
            #expect(named.status == 200)
            #expect(named.json?["username"] == "erin")
            #expect(try await server.passwordLogin("erin", "secret").status == 200)
        }
    }

    @Test("PUT /1/resetPasswordBySmsCode/<code>: new password, every session ended, code used; errors 207/205/118")
    func resetBySmsCode() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            let (id, token) = try await server.signUpUser(
                "frank", password: "old", ["mobilePhoneNumber": .string(phone)])
            let code = try await server.smsCode(for: phone)

            let noPassword = try await server.call("PUT", "/1/resetPasswordBySmsCode/\(code)", json: [:])
            #expect(bmobCode(noPassword) == 118)
            let otherNumber = try await server.call(
                "PUT", "/1/resetPasswordBySmsCode/\(code)",
                json: ["password": "new", "mobilePhoneNumber": .string(uniquePhone())])
            #expect(bmobCode(otherNumber) == 207)

            let reset = try await server.call("PUT", "/1/resetPasswordBySmsCode/\(code)", json: ["password": "new"])
            #expect(reset.status == 200)
            #expect(reset.json == ["msg": "ok"])
            #expect(try await server.sessionIsValid(id, token) == false)
            #expect(bmobCode(try await server.passwordLogin("frank", "old")) == 101)
            #expect(try await server.passwordLogin("frank", "new").status == 200)
            let reused = try await server.call("PUT", "/1/resetPasswordBySmsCode/\(code)", json: ["password": "newer"])
            #expect(bmobCode(reused) == 207)

            // With the number given and right, it works too.
            clock.advance(milliseconds: 60_000)
            let second = try await server.smsCode(for: phone)
            let withNumber = try await server.call(
                "PUT", "/1/resetPasswordBySmsCode/\(second)",
                json: ["password": "newest", "mobilePhoneNumber": .string(phone)])
            #expect(withNumber.json == ["msg": "ok"])
            #expect(try await server.passwordLogin("frank", "newest").status == 200)

            // No user has the number: 205, and the code stays usable for a signup.
            let stranger = uniquePhone()
            let strangerCode = try await server.smsCode(for: stranger)
            let nobody = try await server.call(
                "PUT", "/1/resetPasswordBySmsCode/\(strangerCode)", json: ["password": "p"])
            #expect(bmobCode(nobody) == 205)
            let signUp = try await server.call(
                "POST", "/1/users", json: ["mobilePhoneNumber": .string(stranger), "smsCode": .string(strangerCode)])
            #expect(signUp.status == 200)
        }
    }

    @Test("wrong codes without a number: 20 per client in 15 minutes, then 10076 until the window passes")
    func codeOnlyGuessing() async throws {
        try await withVerificationServer { server, clock in
            let phone = uniquePhone()
            _ = try await server.signUpUser("gina", password: "old", ["mobilePhoneNumber": .string(phone)])
            let code = try await server.smsCode(for: phone)
            var guess = 100_000
            for _ in 0..<20 {
                guess += 1
                if String(guess) == code { guess += 1 }
                let response = try await server.call(
                    "PUT", "/1/resetPasswordBySmsCode/\(guess)", json: ["password": "x"])
                #expect(bmobCode(response) == 207)
            }
            let locked = try await server.call("PUT", "/1/resetPasswordBySmsCode/\(code)", json: ["password": "x"])
            #expect(bmobCode(locked) == 10076)
            #expect(locked.json?["error"]?.stringValue?.contains("try again in") == true)
            clock.advance(milliseconds: 15 * 60_000)
            // The code expired meanwhile; a fresh one works.
            let fresh = try await server.smsCode(for: phone)
            let reset = try await server.call("PUT", "/1/resetPasswordBySmsCode/\(fresh)", json: ["password": "new"])
            #expect(reset.json == ["msg": "ok"])
        }
    }
}
