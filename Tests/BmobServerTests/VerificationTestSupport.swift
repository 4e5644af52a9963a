import BmobServer
import BmobTesting
import BmobWire
import Foundation

/// Starts a test server on a hand-moved clock (and, optionally, other message providers and `configure`d
/// settings), runs `body`, and always stops the server.
func withVerificationServer(
    clock: TestClock = TestClock(start: 1_800_000_000_000),
    providers: MessageProviders? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer, TestClock) async throws -> Void
) async throws {
    let server = try await TestServer.start(clock: clock.serverClock, providers: providers, configure: configure)
    do {
        try await body(server, clock)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// A phone number no other test uses.
func uniquePhone() -> String {
    "139" + String(UInt32.random(in: 10_000_000...99_999_999))
}

extension TestServer {
    /// Requests a code for `phone` through REST and returns it, read from the development outbox.
    func smsCode(for phone: String) async throws -> String {
        let response = try await call("POST", "/1/requestSmsCode", json: ["mobilePhoneNumber": .string(phone)])
        guard response.status == 200, response.json?["smsId"]?.int64Value != nil,
            let code = try latestSmsCode(for: phone)
        else { throw TestFailure("requestSmsCode failed: \(response.status) \(response.text)") }
        return code
    }

    /// Whether `token` is a valid session of `userId`.
    func sessionIsValid(_ userId: String, _ token: String) async throws -> Bool {
        let response = try await call("GET", "/1/checkSession/\(userId)", headers: [("X-Bmob-Session-Token", token)])
        return response.json?["msg"] == "ok"
    }

    /// Logs in with a password through REST; the response.
    func passwordLogin(_ account: String, _ password: String) async throws -> RawHTTPResponse {
        try await call("POST", "/1/login", json: ["username": .string(account), "password": .string(password)])
    }
}
