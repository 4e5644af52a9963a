import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("Native /8/ SMS, phone login and emailed links")
struct NativeVerificationRoutesTests {
    @Test(
        "request_sms_code, verify_sms_code and query_sms with the fields at the top level (vendor Swift SDK) or in data"
    )
    func smsRoutes() async throws {
        try await withVerificationServer { server, clock in
            let client = NativeTestClient(server)
            let phone = uniquePhone()
            let requested = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(phone)])
            let smsId = try #require(requested["smsId"]?.int64Value)
            let code = try #require(try server.latestSmsCode(for: phone))
            // The vendor SDK sends smsId as a string.
            #expect(
                try await client.data("query_sms", ["smsId": .string(String(smsId))])
                    == ["sms_state": "SUCCESS", "verify_state": false])
            let wrong = try await client.call(
                "verify_sms_code",
                ["mobilePhoneNumber": .string(phone), "smsCode": .string(code == "000000" ? "000001" : "000000")])
            #expect(wrong.code == 207)
            #expect(
                try await client.data(
                    "verify_sms_code", ["data": ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)]])
                    == ["msg": "ok"])
            #expect(try await client.data("query_sms", ["data": ["smsId": .int(smsId)]])["verify_state"] == true)

            let limited = try await client.call("request_sms_code", ["data": ["mobilePhoneNumber": .string(phone)]])
            #expect(limited.code == 10010)
            clock.advance(milliseconds: 60_000)
            #expect(
                try await client.call("request_sms_code", ["data": ["mobilePhoneNumber": .string(phone)]]).code == 200)
            #expect(try await client.call("request_sms_code", [:]).code == 118)
            #expect(try await client.call("query_sms", [:]).code == 118)
            #expect(try await client.call("query_sms", ["smsId": "x"]).code == 118)
            #expect(try await client.call("query_sms", ["smsId": 77]).code == 101)
        }
    }

    @Test("login_or_signup makes then finds the user; login with a code never signs up; signup with a code does")
    func phoneLogin() async throws {
        try await withVerificationServer { server, clock in
            let client = NativeTestClient(server)
            let phone = uniquePhone()
            _ = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(phone)])
            let code = try #require(try server.latestSmsCode(for: phone))
            let unknown = try await client.call(
                "login", ["c": "_User", "data": ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)]])
            #expect(unknown.code == 101)
            let created = try await client.data(
                "login_or_signup",
                ["c": "_User", "data": ["mobilePhoneNumber": .string(phone), "smsCode": .string(code)]])
            let id = try #require(created["objectId"]?.stringValue)
            #expect(created["username"]?.stringValue == phone)
            #expect(created["mobilePhoneVerified"] == true)
            #expect(created["sessionToken"]?.stringValue != nil)

            clock.advance(milliseconds: 60_000)
            _ = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(phone)])
            let second = try #require(try server.latestSmsCode(for: phone))
            let login = try await client.data(
                "login", ["c": "_User", "data": ["mobilePhoneNumber": .string(phone), "smsCode": .string(second)]])
            #expect(login["objectId"]?.stringValue == id)
            let used = try await client.call(
                "login_or_signup",
                ["c": "_User", "data": ["mobilePhoneNumber": .string(phone), "smsCode": .string(second)]])
            #expect(used.code == 207)

            let other = uniquePhone()
            _ = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(other)])
            let otherCode = try #require(try server.latestSmsCode(for: other))
            let signUp = try await client.data(
                "signup",
                [
                    "c": "_User",
                    "data": ["mobilePhoneNumber": .string(other), "smsCode": .string(otherCode), "username": "native"],
                ])
            #expect(signUp["username"] == "native")
            #expect(try await client.call("login_or_signup", ["c": "_User", "data": [:]]).code == 118)
            // Password logins still work on the same route.
            #expect(try await client.call("login", ["c": "_User", "data": ["username": "native"]]).code == 108)
        }
    }

    @Test("reset with data.smsCode and data.password only (vendor SDK), phone_reset with the number")
    func passwordResets() async throws {
        try await withVerificationServer { server, clock in
            let client = NativeTestClient(server)
            let phone = uniquePhone()
            let (id, token) = try await server.signUpUser("mia", password: "old", ["mobilePhoneNumber": .string(phone)])
            _ = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(phone)])
            let code = try #require(try server.latestSmsCode(for: phone))
            #expect(
                try await client.data("reset", ["c": "_User", "data": ["smsCode": .string(code), "password": "new"]])
                    == ["msg": "ok"])
            #expect(try await server.sessionIsValid(id, token) == false)
            #expect(try await server.passwordLogin("mia", "new").status == 200)
            #expect(
                try await client.call("reset", ["c": "_User", "data": ["smsCode": .string(code), "password": "x"]]).code
                    == 207)

            clock.advance(milliseconds: 60_000)
            _ = try await client.data("request_sms_code", ["mobilePhoneNumber": .string(phone)])
            let second = try #require(try server.latestSmsCode(for: phone))
            #expect(
                try await client.data(
                    "phone_reset",
                    [
                        "c": "_User",
                        "data": ["smsCode": .string(second), "password": "newer", "mobilePhoneNumber": .string(phone)],
                    ])
                    == ["msg": "ok"])
            #expect(try await server.passwordLogin("mia", "newer").status == 200)
            #expect(try await client.call("phone_reset", ["c": "_User", "data": ["password": "x"]]).code == 118)
        }
    }

    @Test("email_verify and reset with data.email mail links; an unknown address is answered alike")
    func emailRoutes() async throws {
        try await withVerificationServer { server, clock in
            let client = NativeTestClient(server)
            _ = try await server.signUpUser("noa", password: "pw", ["email": "noa@example.com"])
            #expect(
                try await client.data("email_verify", ["c": "_User", "data": ["email": "noa@example.com"]]) == [
                    "msg": "ok"
                ])
            let verify = try #require(try server.latestEmailLink(to: "noa@example.com"))
            #expect(verify.contains("/1/verifyEmail/"))
            clock.advance(milliseconds: 60_000)
            #expect(
                try await client.data("reset", ["c": "_User", "data": ["email": "noa@example.com"]]) == ["msg": "ok"])
            let reset = try #require(try server.latestEmailLink(to: "noa@example.com"))
            #expect(reset.contains("/1/resetPassword/"))
            #expect(
                try await client.data("email_verify", ["c": "_User", "data": ["email": "x@example.com"]]) == ["msg": "ok"])
            #expect(try await client.call("email_verify", ["c": "_User", "data": [:]]).code == 204)
        }
    }
}
