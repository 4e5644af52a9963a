import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("Login lockouts: 5 wrong passwords per account, 50 failed logins per client, in 15 minutes")
struct LoginLimitTests {
    /// The test app's context and a user service on the test clock.
    private func parts(_ server: TestServer, _ clock: TestClock) async throws -> (UserService, AppContext) {
        let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
        let users = UserService(clock: clock.serverClock, hashing: server.server.context.blockingPool)
        return (users, AppContext(runtime: runtime, isMaster: false, sessionToken: nil))
    }

    /// The 10076 message when a login would be refused now, else `nil`.
    private func refusal(
        account: String, userId: String?, client: String?, _ clock: TestClock, _ context: AppContext
    ) async throws -> String? {
        let now = clock.serverClock.nowMilliseconds()
        do {
            try await context.store.read { transaction in
                try UserService.checkLoginLimits(
                    account: account, userId: userId, client: client, now: now, transaction: transaction)
            }
            return nil
        } catch let error as BmobAPIError {
            #expect(error.code.rawValue == 10076)
            return error.message
        }
    }

    @Test("the 5th wrong password locks the account for what is left of 15 minutes; other accounts are not touched")
    func accountLockout() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for attempt in 0..<5 {
                #expect(
                    try await refusal(account: "olga", userId: "u1", client: nil, clock, context) == nil, "\(attempt)")
                try await users.recordLoginFailure(account: "olga", userId: "u1", client: nil, context: context)
                clock.advance(milliseconds: 1000)
            }
            let message = try #require(
                try await refusal(account: "olga@example.com", userId: "u1", client: nil, clock, context))
            #expect(message.contains("this account") && message.contains("try again in 15 minutes"))
            #expect(try await refusal(account: "other", userId: "u2", client: nil, clock, context) == nil)

            // 15 minutes after the first failure, one more attempt is allowed.
            clock.advance(milliseconds: 15 * 60_000 - 5000)
            #expect(try await refusal(account: "olga", userId: "u1", client: nil, clock, context) == nil)
            try await users.recordLoginFailure(account: "olga", userId: "u1", client: nil, context: context)
            #expect(try await refusal(account: "olga", userId: "u1", client: nil, clock, context) != nil)

            // A successful login (or a reset) forgets the failures.
            try await context.store.write(caller: "test") { transaction in
                try UserService.clearLoginFailures(userId: "u1", transaction: transaction)
            }
            #expect(try await refusal(account: "olga", userId: "u1", client: nil, clock, context) == nil)
        }
    }

    @Test("unknown accounts are counted by the name typed")
    func unknownAccounts() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for _ in 0..<5 {
                try await users.recordLoginFailure(account: "ghost", userId: nil, client: nil, context: context)
            }
            #expect(try await refusal(account: "ghost", userId: nil, client: nil, clock, context) != nil)
            #expect(try await refusal(account: "ghost2", userId: nil, client: nil, clock, context) == nil)
        }
    }

    @Test("50 failed logins from one client lock that client out of every account")
    func clientLockout() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for index in 0..<50 {
                #expect(try await refusal(account: "a\(index)", userId: nil, client: "10.0.0.1", clock, context) == nil)
                try await users.recordLoginFailure(
                    account: "a\(index)", userId: nil, client: "10.0.0.1", context: context)
            }
            let message = try #require(
                try await refusal(account: "fresh", userId: "u9", client: "10.0.0.1", clock, context))
            #expect(message.contains("this client"))
            #expect(try await refusal(account: "fresh", userId: "u9", client: "10.0.0.2", clock, context) == nil)
            #expect(try await refusal(account: "fresh", userId: "u9", client: nil, clock, context) == nil)
            clock.advance(milliseconds: 15 * 60_000)
            #expect(try await refusal(account: "fresh", userId: "u9", client: "10.0.0.1", clock, context) == nil)
        }
    }

    @Test("through /1/login: the 6th login after 5 wrong passwords is 10076 even with the right one")
    func throughLogin() async throws {
        try await withVerificationServer { server, clock in
            _ = try await server.signUpUser("pia", password: "right")
            for _ in 0..<5 {
                #expect(try await server.passwordLogin("pia", "wrong").json?["code"] == 101)
            }
            let locked = try await server.passwordLogin("pia", "right")
            #expect(locked.json?["code"] == 10076)
            clock.advance(milliseconds: 15 * 60_000)
            #expect(try await server.passwordLogin("pia", "right").status == 200)
        }
    }
}
