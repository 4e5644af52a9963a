import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The rule of ``UserService/checkLoginLimits(account:userIds:client:now:transaction:)`` on its own, on the test
/// clock (through /1/login: `Security/AccountLoginThrottleTests.swift`).
@Suite("Login slowing: backoff per account and address, per address and per account; no lockout")
struct LoginLimitTests {
    /// The test app's context and a user service on the test clock.
    private func parts(_ server: TestServer, _ clock: TestClock, _ limits: AccountLimits = AccountLimits()) async throws
        -> (UserService, AppContext)
    {
        let runtime = try #require(await server.server.context.apps.runtime(id: TestServer.applicationId))
        let users = UserService(clock: clock.serverClock, hashing: server.server.context.blockingPool, limits: limits)
        return (users, AppContext(runtime: runtime, isMaster: false, sessionToken: nil))
    }

    /// The 10076 message when a login would be refused now, else `nil`.
    private func refusal(
        _ users: UserService, account: String = "name", _ userIds: [String], from client: String?, _ clock: TestClock,
        _ context: AppContext
    ) async throws -> String? {
        let now = clock.serverClock.nowMilliseconds()
        do {
            try await context.store.read { transaction in
                try users.checkLoginLimits(
                    account: account, userIds: userIds, client: client, now: now, transaction: transaction)
            }
            return nil
        } catch let error as BmobAPIError {
            #expect(error.code.rawValue == 10076)
            return error.message
        }
    }

    private func fail(
        _ users: UserService, account: String = "name", _ userIds: [String], from client: String?, _ clock: TestClock,
        _ context: AppContext
    ) async throws {
        let now = clock.serverClock.nowMilliseconds()
        try await context.store.write(caller: "test") { transaction in
            try users.recordLoginFailure(account: account, userIds: userIds, client: client, now: now, transaction: transaction)
        }
    }

    private func succeed(_ userId: String, from client: String?, _ clock: TestClock, _ context: AppContext) async throws {
        let now = clock.serverClock.nowMilliseconds()
        try await context.store.write(caller: "test") { transaction in
            try UserService.recordLoginSuccess(userId: userId, client: client, now: now, transaction: transaction)
        }
    }

    @Test("5 free failures per account and address, then 1 s, 2 s, 4 s … up to 15 minutes; other addresses untouched")
    func pairBackoff() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for attempt in 0..<5 {
                #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) == nil, "\(attempt)")
                try await fail(users, ["u1"], from: "10.0.0.1", clock, context)
            }
            let first = try #require(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context))
            #expect(first.contains("from this client address") && first.contains("try again in 1 second"))
            // Someone else's failures never slow the account elsewhere, nor other accounts here.
            #expect(try await refusal(users, ["u1"], from: "10.0.0.2", clock, context) == nil)
            #expect(try await refusal(users, ["u2"], from: "10.0.0.1", clock, context) == nil)

            for step in 0..<12 {
                let seconds = min(Int64(1) << step, 900)
                let message = try #require(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context))
                if seconds < 120 {
                    #expect(message.hasSuffix("try again in \(seconds) second\(seconds == 1 ? "" : "s")"), "\(step)")
                }
                // Refused until the wait is over, allowed at its end.
                clock.advance(milliseconds: seconds * 1000 - 1)
                #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) != nil, "\(step)")
                clock.advance(milliseconds: 1)
                #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) == nil, "\(step)")
                try await fail(users, ["u1"], from: "10.0.0.1", clock, context)
            }
            // Capped at 15 minutes.
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context)?.hasSuffix("15 minutes") == true)

            // A success from the address forgets its failures there.
            try await succeed("u1", from: "10.0.0.1", clock, context)
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) == nil)
        }
    }

    @Test("50 failures from one address slow it for every account but those it logged in to")
    func clientBackoff() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            try await succeed("known", from: "10.0.0.1", clock, context)
            for index in 0..<50 {
                #expect(try await refusal(users, account: "a\(index)", [], from: "10.0.0.1", clock, context) == nil)
                try await fail(users, account: "a\(index)", [], from: "10.0.0.1", clock, context)
            }
            let message = try #require(try await refusal(users, ["u9"], from: "10.0.0.1", clock, context))
            #expect(message == "too many failed logins from this client address; try again in 1 second")
            #expect(try await refusal(users, ["u9"], from: "10.0.0.2", clock, context) == nil)
            // The account that logged in from there within a day is not slowed by the address's failures.
            #expect(try await refusal(users, ["known"], from: "10.0.0.1", clock, context) == nil)
            clock.advance(milliseconds: 1000)
            #expect(try await refusal(users, ["u9"], from: "10.0.0.1", clock, context) == nil)
        }
    }

    @Test("20 failures for one account from many addresses slow new addresses up to a minute, not trusted ones")
    func accountGuard() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            try await succeed("u1", from: "192.168.0.1", clock, context)
            for index in 0..<40 {
                try await fail(users, ["u1"], from: "10.0.1.\(index)", clock, context)
            }
            let message = try #require(try await refusal(users, ["u1"], from: "10.0.2.1", clock, context))
            #expect(message == "too many failed logins for this account; try again in 60 seconds")
            // The owner's usual address is not slowed by strangers' failures.
            #expect(try await refusal(users, ["u1"], from: "192.168.0.1", clock, context) == nil)
            clock.advance(milliseconds: 60_000)
            #expect(try await refusal(users, ["u1"], from: "10.0.2.1", clock, context) == nil)
        }
    }

    @Test("the numbers are settings")
    func settings() async throws {
        try await withVerificationServer { server, clock in
            var limits = AccountLimits()
            limits.loginFreeFailures = 2
            limits.loginMaxDelaySeconds = 3
            let (users, context) = try await parts(server, clock, limits)
            for _ in 0..<2 { try await fail(users, ["u1"], from: "10.0.0.1", clock, context) }
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context)?.hasSuffix("1 second") == true)
            for _ in 0..<5 { try await fail(users, ["u1"], from: "10.0.0.1", clock, context) }
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context)?.hasSuffix("3 seconds") == true)
            // Failures leave the count after the window.
            clock.advance(milliseconds: Int64(limits.loginFailureWindowSeconds) * 1000)
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) == nil)
        }
    }

    @Test("unknown accounts are counted by the name typed; a password reset starts an account afresh")
    func unknownAccountsAndReset() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for _ in 0..<5 { try await fail(users, account: "ghost", [], from: "10.0.0.1", clock, context) }
            #expect(try await refusal(users, account: "ghost", [], from: "10.0.0.1", clock, context) != nil)
            #expect(try await refusal(users, account: "ghost2", [], from: "10.0.0.1", clock, context) == nil)

            for _ in 0..<5 { try await fail(users, ["u1"], from: "10.0.0.1", clock, context) }
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) != nil)
            let now = clock.serverClock.nowMilliseconds()
            try await context.store.write(caller: "test") { transaction in
                try UserService.clearLoginFailures(userId: "u1", now: now, transaction: transaction)
            }
            #expect(try await refusal(users, ["u1"], from: "10.0.0.1", clock, context) == nil)
        }
    }

    @Test("several accounts named by one identifier (legacy data): any one slowed slows the login")
    func severalAccounts() async throws {
        try await withVerificationServer { server, clock in
            let (users, context) = try await parts(server, clock)
            for _ in 0..<5 { try await fail(users, ["u1", "u2"], from: "10.0.0.1", clock, context) }
            #expect(try await refusal(users, ["u2"], from: "10.0.0.1", clock, context) != nil)
            #expect(try await refusal(users, ["u3", "u1"], from: "10.0.0.1", clock, context) != nil)
        }
    }
}
