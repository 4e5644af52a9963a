import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Issue 14, item 13: wrong passwords used to lock the account (5 → 15 minutes, even for the owner) and the
/// address (50 → every account). Now they slow the guesser per account and address, with growing waits.
@Suite("Security: failed logins slow the guesser and never lock the owner out")
struct AccountLoginThrottleTests {
    @Test("after wrong passwords from 127.0.0.1, Alice logs in from 127.0.0.2 at once; .1 waits 1 s, 2 s, …")
    func ownerNotLockedOut() async throws {
        try await withAccountServer { server, clock in
            let (id, _) = try await server.signUpUser("alice", password: "right")
            for _ in 0..<5 {
                #expect(accountErrorCode(try await server.login("alice", "guess", from: "127.0.0.1")) == 101)
            }
            let slowed = try await server.login("alice", "guess", from: "127.0.0.1")
            #expect(accountErrorCode(slowed) == 10076)
            #expect(slowed.json?["error"]?.stringValue?.hasSuffix("try again in 1 second") == true)

            let owner = try await server.login("alice", "right", from: "127.0.0.2")
            #expect(owner.status == 200, "\(owner.text)")
            #expect(owner.json?["objectId"]?.stringValue == id)
            // By email or phone it is the same account, and the owner still gets in.
            #expect(try await server.login("alice", "right", from: "127.0.0.3").status == 200)

            // The guesser's waits grow; after each wait one more try is allowed.
            clock.advance(milliseconds: 1000)
            #expect(accountErrorCode(try await server.login("alice", "guess", from: "127.0.0.1")) == 101)
            let second = try await server.login("alice", "guess", from: "127.0.0.1")
            #expect(second.json?["error"]?.stringValue?.hasSuffix("try again in 2 seconds") == true)
            clock.advance(milliseconds: 2000)
            #expect(accountErrorCode(try await server.login("alice", "guess", from: "127.0.0.1")) == 101)
            let third = try await server.login("alice", "right", from: "127.0.0.1")
            #expect(third.json?["error"]?.stringValue?.hasSuffix("try again in 4 seconds") == true)
            // Once the wait is over the right password works from there too, and clears the address's count.
            clock.advance(milliseconds: 4000)
            #expect(try await server.login("alice", "right", from: "127.0.0.1").status == 200)
            #expect(accountErrorCode(try await server.login("alice", "guess", from: "127.0.0.1")) == 101)
        }
    }

    @Test("a login that must wait runs no scrypt")
    func noHashingWhileSlowed() async throws {
        try await withAccountServer { server, clock in
            _ = try await server.signUpUser("bea", password: "right")
            let work = AccountPasswordWork()
            let users = server.countingUserService(clock: clock, work)
            let context = try await server.accountContext(client: "10.0.0.1")
            for _ in 0..<5 {
                await #expect(throws: BmobAPIError.self) { try await users.logIn(account: "bea", password: "x", context: context) }
            }
            #expect(work.runs == 5)
            for password in ["x", "right"] {
                do {
                    _ = try await users.logIn(account: "bea", password: password, context: context)
                    Issue.record("a slowed login went through")
                } catch let error as BmobAPIError {
                    #expect(error.code.rawValue == 10076)
                }
            }
            #expect(work.runs == 5)
            // Another address hashes and logs in.
            let owner = try await server.accountContext(client: "10.0.0.2")
            #expect(try await users.logIn(account: "bea", password: "right", context: owner).user.fields["username"] == "bea")
            #expect(work.runs == 6)
        }
    }

    @Test("a burst of parallel guesses from one address learns at most the free allowance")
    func parallelBurst() async throws {
        try await withAccountServer { server, _ in
            _ = try await server.signUpUser("cleo", password: "right")
            let codes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for index in 0..<12 {
                    group.addTask { accountErrorCode(try await server.login("cleo", "guess\(index)")) }
                }
                return try await group.reduce(into: [Int64?]()) { $0.append($1) }
            }
            #expect(codes.filter { $0 == 101 }.count == 5, "\(codes)")
            #expect(codes.filter { $0 == 10076 }.count == 7, "\(codes)")
        }
    }

    @Test("an unknown account is slowed exactly like a known one, so answers do not tell them apart")
    func unknownLikeKnown() async throws {
        try await withAccountServer { server, _ in
            _ = try await server.signUpUser("dora", password: "right")
            for account in ["dora", "nobody-here"] {
                for _ in 0..<5 { #expect(accountErrorCode(try await server.login(account, "guess")) == 101) }
            }
            let known = try await server.login("dora", "guess")
            let unknown = try await server.login("nobody-here", "guess")
            #expect(known.status == unknown.status)
            #expect(known.json == unknown.json)
            // Hostile names are counted too, and answered like any other.
            let long = String(repeating: "x", count: 256)
            for _ in 0..<5 { #expect(accountErrorCode(try await server.login(long, "guess", from: "127.0.0.9")) == 101) }
            #expect(accountErrorCode(try await server.login(long, "guess", from: "127.0.0.9")) == 10076)
            #expect(accountErrorCode(try await server.login(long + "x", "guess", from: "127.0.0.9")) == 101)
        }
    }

    @Test("the server settings set the numbers")
    func configured() async throws {
        try await withAccountServer(configure: { $0.accountLimits.loginFreeFailures = 2 }) { server, clock in
            _ = try await server.signUpUser("emma", password: "right")
            for _ in 0..<2 { #expect(accountErrorCode(try await server.login("emma", "guess")) == 101) }
            #expect(accountErrorCode(try await server.login("emma", "right")) == 10076)
            clock.advance(milliseconds: 1000)
            #expect(try await server.login("emma", "right").status == 200)
        }
    }
}
