import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 14: one client could have SMS codes sent to any number of phone numbers, and ask for any number
/// of reset and verification mails, whose 205 answer also told which addresses have accounts.
@Suite("Security: per-client and per-app limits on SMS codes and emailed links; no email oracle")
struct AccountRequestLimitTests {
    private func requestCode(_ server: TestServer, _ phone: String, from source: String?) async throws -> RawHTTPResponse {
        try await server.call("POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(phone)], source: source)
    }

    private func requestReset(_ server: TestServer, _ email: String, from source: String? = nil) async throws
        -> RawHTTPResponse
    {
        try await server.call("POST", "/1/requestPasswordReset", json: ["email": .string(email)], source: source)
    }

    @Test("SMS codes per client address: 10010 past the limit, other addresses go on, the hour passes")
    func smsPerClient() async throws {
        try await withAccountServer(configure: { $0.accountLimits.smsCodesPerClientPerHour = 3 }) { server, clock in
            for _ in 0..<3 { #expect(try await requestCode(server, uniquePhone(), from: "127.0.0.2").status == 200) }
            let refused = try await requestCode(server, uniquePhone(), from: "127.0.0.2")
            #expect(accountErrorCode(refused) == 10010)
            #expect(refused.json?["error"]?.stringValue?.contains("this client address") == true)
            #expect(try await requestCode(server, uniquePhone(), from: "127.0.0.3").status == 200)
            clock.advance(milliseconds: 3_600_000)
            #expect(try await requestCode(server, uniquePhone(), from: "127.0.0.2").status == 200)
        }
    }

    @Test("SMS codes per app: many addresses together stop at the app's limit")
    func smsPerApp() async throws {
        try await withAccountServer(configure: { $0.accountLimits.smsCodesPerAppPerHour = 4 }) { server, _ in
            for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"] {
                #expect(try await requestCode(server, uniquePhone(), from: source).status == 200)
            }
            let refused = try await requestCode(server, uniquePhone(), from: "127.0.0.6")
            #expect(accountErrorCode(refused) == 10010)
            #expect(refused.json?["error"]?.stringValue?.contains("this app") == true)
            // A refusal by the number's own limit does not use up the client's or the app's allowance.
        }
    }

    @Test("a number's own limit refuses first and costs the client nothing; native request_sms_code is limited too")
    func smsNative() async throws {
        try await withAccountServer(configure: { $0.accountLimits.smsCodesPerClientPerHour = 2 }) { server, _ in
            let client = NativeTestClient(server)
            let phone = uniquePhone()
            #expect(try await client.call("request_sms_code", ["mobilePhoneNumber": .string(phone)]).code == 200)
            for _ in 0..<3 {
                #expect(try await client.call("request_sms_code", ["mobilePhoneNumber": .string(phone)]).code == 10010)
            }
            #expect(try await client.call("request_sms_code", ["mobilePhoneNumber": .string(uniquePhone())]).code == 200)
            let refused = try await client.call("request_sms_code", ["data": ["mobilePhoneNumber": .string(uniquePhone())]])
            #expect(refused.code == 10010)
        }
    }

    @Test("a reset or verification request for an unknown address answers exactly as for a known one, mailing nothing")
    func noEmailOracle() async throws {
        try await withAccountServer { server, clock in
            _ = try await server.signUpUser("jo", password: "pw", ["email": "jo@example.com"])
            for route in ["/1/requestPasswordReset", "/1/requestEmailVerify"] {
                clock.advance(milliseconds: 60_000)
                let known = try await server.call("POST", route, json: ["email": "jo@example.com"])
                let unknown = try await server.call("POST", route, json: ["email": "nobody@example.com"])
                #expect(known.status == 200 && unknown.status == 200, "\(route): \(unknown.text)")
                #expect(known.json == unknown.json)
                #expect(known.json == ["msg": "ok"])
                // The per-address mail limit answers alike too.
                let knownAgain = try await server.call("POST", route, json: ["email": "jo@example.com"])
                let unknownAgain = try await server.call("POST", route, json: ["email": "nobody@example.com"])
                #expect(accountErrorCode(knownAgain) == 10010 && accountErrorCode(unknownAgain) == 10010)
                #expect(
                    knownAgain.json?["error"]?.stringValue?.replacingOccurrences(of: "jo@", with: "nobody@")
                        == unknownAgain.json?["error"]?.stringValue)
            }
            #expect(try server.outbox().contains { $0["to"]?.stringValue == "nobody@example.com" } == false)
            #expect(try server.latestEmailLink(to: "jo@example.com") != nil)
            // Native email_verify answers the same way.
            let native = NativeTestClient(server)
            #expect(
                try await native.data("email_verify", ["c": "_User", "data": ["email": "ghost@example.com"]]) == ["msg": "ok"])
        }
    }

    @Test("an app can turn the hiding off (security.successOnUnknownEmail) and gets Bmob's 205")
    func revealingApp() async throws {
        try await withAccountServer { server, clock in
            var context = try await server.accountContext()
            context.app.security.successOnUnknownEmail = false
            let email = EmailLinkService(
                clock: clock.serverClock, provider: RecordingMessageProvider(),
                hashing: server.server.context.blockingPool, logger: .disabled)
            do {
                try await email.requestPasswordReset(email: "nobody@example.com", publicURL: server.baseURL, context: context)
                Issue.record("an unknown address was accepted")
            } catch let error as BmobAPIError {
                #expect(error.code.rawValue == 205)
            }
            #expect(AppSecurity().successOnUnknownEmail)
            #expect(try AppSecurity(json: ["successOnUnknownEmail": false]).successOnUnknownEmail == false)
            #expect(AppSecurity().json["successOnUnknownEmail"] == true)
            #expect(throws: ConfigurationError.self) { try AppSecurity(json: ["successOnUnknownEmail": "no"]) }
        }
    }

    @Test("emailed links per client address and per app (10076); unknown addresses count the same")
    func emailLimits() async throws {
        try await withAccountServer(configure: {
            $0.accountLimits.emailRequestsPerClientPerHour = 2
            $0.accountLimits.emailRequestsPerAppPerHour = 4
        }) { server, clock in
            for index in 0..<2 { #expect(try await requestReset(server, "a\(index)@example.com", from: "127.0.0.2").status == 200) }
            let perClient = try await requestReset(server, "a2@example.com", from: "127.0.0.2")
            #expect(accountErrorCode(perClient) == 10076)
            #expect(perClient.json?["error"]?.stringValue?.contains("this client address") == true)
            for index in 0..<2 { #expect(try await requestReset(server, "b\(index)@example.com", from: "127.0.0.3").status == 200) }
            let perApp = try await requestReset(server, "c@example.com", from: "127.0.0.4")
            #expect(accountErrorCode(perApp) == 10076)
            #expect(perApp.json?["error"]?.stringValue?.contains("this app") == true)
            clock.advance(milliseconds: 3_600_000)
            #expect(try await requestReset(server, "c@example.com", from: "127.0.0.4").status == 200)
        }
    }

    @Test("hostile addresses: too long is 301 and not counted; header-like text mails nothing")
    func hostileAddresses() async throws {
        try await withAccountServer(configure: { $0.accountLimits.emailRequestsPerClientPerHour = 2 }) { server, _ in
            let long = String(repeating: "a", count: 300) + "@example.com"
            for _ in 0..<3 {
                let refused = try await requestReset(server, long)
                #expect(accountErrorCode(refused) == 301)
            }
            #expect(try await requestReset(server, "x@example.com\r\nBcc: victim@example.com").status == 200)
            #expect(try await requestReset(server, "y@example.com").status == 200)
            #expect(try server.outbox().filter { $0["kind"] == "email" }.isEmpty)
        }
    }
}
