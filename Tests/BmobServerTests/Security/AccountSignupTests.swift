import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 20: signup hashed the password (scrypt) before looking at the username, and any client could
/// sign up without limit.
@Suite("Security: signups check identities before hashing and are limited per client address")
struct AccountSignupTests {
    @Test("a signup with a taken username, email or phone answers 202/203/209 without hashing")
    func noHashingForTakenNames() async throws {
        try await withAccountServer { server, clock in
            _ = try await server.signUpUser("ann", password: "pw", ["email": "ann@example.com", "mobilePhoneNumber": "13800000009"])
            let work = AccountPasswordWork()
            let users = server.countingUserService(clock: clock, work)
            let context = try await server.accountContext()
            let cases: [([String: JSONValue], Int)] = [
                (["username": "ann", "password": "x"], 202),
                (["username": "ann@example.com", "password": "x"], 202),
                (["username": "other", "password": "x", "email": "ann@example.com"], 203),
                (["username": "other", "password": "x", "mobilePhoneNumber": "13800000009"], 209),
                (["username": "other", "password": "x", "mobilePhoneNumber": "ann"], 209),
            ]
            for (body, code) in cases {
                do {
                    _ = try await users.signUp(body: body, context: context)
                    Issue.record("signup of a taken identity went through: \(body)")
                } catch let error as BmobAPIError {
                    #expect(error.code.rawValue == code, "\(body)")
                }
            }
            #expect(work.runs == 0)
            // The observer does see hashing: a free name hashes once.
            _ = try await users.signUp(body: ["username": "free", "password": "x"], context: context)
            #expect(work.runs == 1)
        }
    }

    @Test("a phone signup with a password hashes only once the code is right and the names are free")
    func phoneSignupHashing() async throws {
        try await withAccountServer { server, clock in
            _ = try await server.signUpUser("taken", password: "pw")
            let work = AccountPasswordWork()
            let users = server.countingUserService(clock: clock, work)
            let context = try await server.accountContext()
            let phone = uniquePhone()
            let code = try await server.smsCode(for: phone)
            let attempts: [(String, [String: JSONValue], Int)] = [
                (code == "000000" ? "000001" : "000000", ["password": "pw", "username": "new"], 207),
                (code, ["password": "pw", "username": "taken"], 202),
            ]
            for (smsCode, fields, expected) in attempts {
                do {
                    _ = try await users.logIn(
                        mobilePhoneNumber: phone, smsCode: smsCode, fields: fields, allowSignUp: true, context: context)
                    Issue.record("a refused phone signup went through")
                } catch let error as BmobAPIError {
                    #expect(error.code.rawValue == expected)
                }
            }
            #expect(work.runs == 0)
            let created = try await users.logIn(
                mobilePhoneNumber: phone, smsCode: code, fields: ["password": "pw", "username": "new"], allowSignUp: true,
                context: context)
            #expect(created.created && work.runs == 1)
        }
    }

    @Test("signups are limited per client address (10076) while other addresses and the master key go on")
    func perAddressLimit() async throws {
        try await withAccountServer(configure: { $0.accountLimits.signupsPerClientPerHour = 3 }) { server, clock in
            func signUp(_ name: String, from source: String?, master: Bool = false) async throws -> RawHTTPResponse {
                try await server.call(
                    "POST", "/1/users", json: ["username": .string(name), "password": "pw"], master: master, source: source)
            }
            _ = try await server.signUpUser("taken", password: "pw")
            // Refused signups (a taken name) do not count.
            for _ in 0..<5 { #expect(accountErrorCode(try await signUp("taken", from: "127.0.0.2")) == 202) }
            for index in 0..<3 { #expect(try await signUp("u\(index)", from: "127.0.0.2").status == 201) }
            let refused = try await signUp("u3", from: "127.0.0.2")
            #expect(accountErrorCode(refused) == 10076)
            #expect(refused.json?["error"]?.stringValue?.contains("client address") == true)
            #expect(refused.json?["error"]?.stringValue?.contains("try again in 60 minutes") == true)
            // The name was not taken by the refused signup.
            #expect(try await signUp("u3", from: "127.0.0.3").status == 201)
            #expect(try await signUp("m1", from: "127.0.0.2", master: true).status == 201)
            clock.advance(milliseconds: 3_600_000)
            #expect(try await signUp("u4", from: "127.0.0.2").status == 201)
        }
    }

    @Test("a batch of signups is limited element by element")
    func batchSignups() async throws {
        try await withAccountServer(configure: { $0.accountLimits.signupsPerClientPerHour = 2 }) { server, _ in
            let requests: [JSONValue] = (0..<4).map { index in
                ["method": "POST", "path": "/1/users", "body": ["username": .string("b\(index)"), "password": "pw"]]
            }
            let response = try await server.call("POST", "/1/batch", json: ["requests": .array(requests)], source: "127.0.0.4")
            let results = try #require(response.json?.arrayValue)
            #expect(results.count == 4)
            #expect(results.prefix(2).allSatisfy { $0["success"] != nil })
            #expect(results.suffix(2).allSatisfy { $0["error"]?["code"] == 10076 })
        }
    }
}
