import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("REST emailed links: password reset and email verification")
struct EmailLinkTests {
    private func bmobCode(_ response: RawHTTPResponse) -> Int64? { response.json?["code"]?.int64Value }

    /// The path and query of a link (`/1/resetPassword/<token>`), checked to start with the server's URL.
    private func path(of link: String, _ server: TestServer) throws -> String {
        #expect(link.hasPrefix(server.baseURL + "/1/"))
        return String(link.dropFirst(server.baseURL.count))
    }

    @Test("requestPasswordReset mails a link; the page's form sets the password once and ends every session")
    func passwordReset() async throws {
        try await withVerificationServer { server, _ in
            let (id, token) = try await server.signUpUser("hana", password: "old", ["email": "hana@example.com"])
            let request = try await server.call("POST", "/1/requestPasswordReset", json: ["email": "hana@example.com"])
            #expect(request.status == 200)
            #expect(request.json == ["msg": "ok"])
            let mail = try #require(try server.outbox().last)
            #expect(mail["kind"] == "email" && mail["to"] == "hana@example.com")
            #expect(mail["subject"]?.stringValue?.contains("Reset your") == true)
            let link = try #require(try server.latestEmailLink(to: "hana@example.com"))
            let target = try path(of: link, server)
            #expect(target.hasPrefix("/1/resetPassword/\(TestServer.applicationId)."))

            // A browser gets the form, without any Bmob header.
            let page = try await server.request("GET", target, headers: [("Accept", "text/html")])
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
            #expect(page.headers["Referrer-Policy"] == "no-referrer")
            #expect(page.text.contains("<form method=\"post\">") && page.text.contains("name=\"password\""))
            #expect(page.text.contains("hana@example.com"))

            // Two different passwords: the page says so and nothing changes.
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let mismatch = try await server.request(
                "POST", target, headers: form, body: Array("password=a&confirm=b".utf8))
            #expect(mismatch.status == 400)
            #expect(mismatch.text.contains("Error 301"))
            #expect(try await server.passwordLogin("hana", "old").status == 200)

            let posted = try await server.request(
                "POST", target, headers: form, body: Array("password=n%C3%A9w+pass&confirm=n%C3%A9w+pass".utf8))
            #expect(posted.status == 200)
            #expect(posted.text.contains("Password changed"))
            #expect(try await server.sessionIsValid(id, token) == false)
            #expect(bmobCode(try await server.passwordLogin("hana", "old")) == 101)
            #expect(try await server.passwordLogin("hana", "néw pass").status == 200)

            // Used once: HTML for a browser, Bmob's JSON otherwise.
            let again = try await server.request("GET", target, headers: [("Accept", "text/html")])
            #expect(again.status == 400)
            #expect(again.text.contains("Error 207"))
            let json = try await server.request(
                "POST", target, headers: [("Content-Type", "application/json")], body: Array(#"{"password":"x"}"#.utf8))
            #expect(json.status == 400)
            #expect(bmobCode(json) == 207)
        }
    }

    @Test("a reset link takes JSON, expires after an hour, and only the newest link works")
    func resetLinkLifetime() async throws {
        try await withVerificationServer { server, clock in
            _ = try await server.signUpUser("ivan", password: "old", ["email": "ivan@example.com"])
            _ = try await server.call("POST", "/1/requestPasswordReset", json: ["email": "ivan@example.com"])
            let first = try path(of: try #require(try server.latestEmailLink(to: "ivan@example.com")), server)
            clock.advance(milliseconds: 60_000)
            _ = try await server.call("POST", "/1/requestPasswordReset", json: ["email": "ivan@example.com"])
            let second = try path(of: try #require(try server.latestEmailLink(to: "ivan@example.com")), server)
            #expect(first != second)
            let replaced = try await server.request("GET", first)
            #expect(bmobCode(replaced) == 207)

            clock.advance(milliseconds: 3_600_000 - 1)
            let valid = try await server.request("GET", second)
            #expect(valid.status == 200)
            clock.advance(milliseconds: 1)
            let expired = try await server.request(
                "POST", second, headers: [("Content-Type", "application/json")],
                body: Array(#"{"password":"new"}"#.utf8))
            #expect(bmobCode(expired) == 207)
            #expect(try await server.passwordLogin("ivan", "old").status == 200)

            // Fresh link, JSON body.
            _ = try await server.call("POST", "/1/requestPasswordReset", json: ["email": "ivan@example.com"])
            let third = try path(of: try #require(try server.latestEmailLink(to: "ivan@example.com")), server)
            let posted = try await server.request(
                "POST", third, headers: [("Content-Type", "application/json")], body: Array(#"{"password":"new"}"#.utf8)
            )
            #expect(posted.json == ["msg": "ok"])
            #expect(try await server.passwordLogin("ivan", "new").status == 200)
        }
    }

    @Test("unknown email answered as a known one (mailing nothing), missing email 204, bad tokens 207, 1 mail a minute per address (10010)")
    func errors() async throws {
        try await withVerificationServer { server, clock in
            _ = try await server.signUpUser("jo", password: "pw", ["email": "jo@example.com"])
            for (index, route) in ["/1/requestPasswordReset", "/1/requestEmailVerify"].enumerated() {
                let unknown = try await server.call("POST", route, json: ["email": .string("nobody\(index)@example.com")])
                #expect(unknown.json == ["msg": "ok"])
                #expect(bmobCode(try await server.call("POST", route, json: [:])) == 204)
            }
            #expect(try server.outbox().contains { $0["to"]?.stringValue?.hasPrefix("nobody") == true } == false)
            #expect(
                try await server.call("POST", "/1/requestEmailVerify", json: ["email": "jo@example.com"]).status == 200)
            let limited = try await server.call("POST", "/1/requestPasswordReset", json: ["email": "jo@example.com"])
            #expect(bmobCode(limited) == 10010)
            clock.advance(milliseconds: 60_000)
            #expect(
                try await server.call("POST", "/1/requestPasswordReset", json: ["email": "jo@example.com"]).status
                    == 200)

            let secret = String(repeating: "a", count: 64)
            for target in [
                "/1/resetPassword/nodot", "/1/resetPassword/\(TestServer.applicationId).\(secret)",
                "/1/resetPassword/unknownapp.\(secret)", "/1/verifyEmail/\(TestServer.applicationId).short",
            ] {
                let response = try await server.request("GET", target)
                #expect(response.status == 400, "\(target)")
                #expect(bmobCode(response) == 207, "\(target)")
            }
            // The newest mail is the reset mailed after the limit passed.
            let latest = try path(of: try #require(try server.latestEmailLink(to: "jo@example.com")), server)
            #expect(latest.hasPrefix("/1/resetPassword/"))
            let mails = try server.outbox().filter { $0["kind"] == "email" }
            #expect(mails.count == 2)
        }
    }

    @Test("requestEmailVerify: the link sets emailVerified through a journaled update of the user")
    func verification() async throws {
        try await withVerificationServer { server, _ in
            let (id, _) = try await server.signUpUser("kim", password: "pw", ["email": "kim@example.com"])
            let request = try await server.call("POST", "/1/requestEmailVerify", json: ["email": "kim@example.com"])
            #expect(request.json == ["msg": "ok"])
            let mail = try #require(try server.outbox().last)
            #expect(mail["subject"]?.stringValue?.contains("Verify your email") == true)
            let target = try path(of: try #require(try server.latestEmailLink(to: "kim@example.com")), server)
            #expect(target.hasPrefix("/1/verifyEmail/"))
            // A reset page does not accept a verification token.
            let wrongKind = try await server.request(
                "GET", target.replacingOccurrences(of: "verifyEmail", with: "resetPassword"))
            #expect(bmobCode(wrongKind) == 207)

            let page = try await server.request("GET", target, headers: [("Accept", "text/html,application/xhtml+xml")])
            #expect(page.status == 200)
            #expect(page.text.contains("verified") && page.text.contains("kim@example.com"))
            #expect(try await server.call("GET", "/1/users/\(id)").json?["emailVerified"] == true)

            let journal = try await journalEntries(server).filter { $0.className == "_User" && $0.objectId == id }
            #expect(journal.last?.after?["emailVerified"] == true)

            let again = try await server.request("GET", target)
            #expect(bmobCode(again) == 207)
        }
    }

    @Test("a verification link of an address the user changed since does nothing")
    func changedAddress() async throws {
        try await withVerificationServer { server, _ in
            let (id, token) = try await server.signUpUser("lea", password: "pw", ["email": "lea@example.com"])
            _ = try await server.call("POST", "/1/requestEmailVerify", json: ["email": "lea@example.com"])
            let target = try path(of: try #require(try server.latestEmailLink(to: "lea@example.com")), server)
            let update = try await server.call(
                "PUT", "/1/users/\(id)", json: ["email": "lea@elsewhere.example"],
                headers: [("X-Bmob-Session-Token", token)])
            #expect(update.status == 200)
            let followed = try await server.request("GET", target)
            #expect(bmobCode(followed) == 207)
            #expect(try await server.call("GET", "/1/users/\(id)").json?["emailVerified"] != true)
        }
    }

    private func journalEntries(_ server: TestServer) async throws -> [JournalEntry] {
        let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
        return try await runtime.store.journal(after: 0, limit: 1000)
    }
}
