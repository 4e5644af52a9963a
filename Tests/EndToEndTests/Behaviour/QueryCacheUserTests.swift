import BmobCore
import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

@testable import BmobData
@testable import BmobUser

extension EndToEnd {
    /// The query cache holds answers filtered by the ACLs of the user who asked: they are keyed by app, user
    /// and request, and cleared when the current user changes.
    @Suite("Query cache per user")
    @MainActor
    struct QueryCacheUserTests {
        /// Two users, signed up once for the suite, and the class `Private`: `n = 0` readable by everyone, `n = 1`
        /// by user A only, `n = 2` by user B only.
        struct Accounts: Sendable {
            var a: (name: String, id: String)
            var b: (name: String, id: String)
        }

        private static let password = "pw-cache"

        private static let accounts = Task { @MainActor () throws -> Accounts in
            _ = try await SDKFixture.server()
            try await SDKFixture.emptyClasses("Private")
            try await SDKFixture.restCreate("Private", ["n": 0])
            var made: [(String, String)] = []
            for n in 1...2 {
                let user = BmobUser()
                user.username = "cache\(n)-" + String(UUID().uuidString.prefix(8)).lowercased()
                user.password = password
                try await user.signUp()
                guard let id = user.objectId else { throw FixtureError("signup gave no objectId") }
                let acl = BmobACL()
                acl.setReadAccess(enabled: true, forUserId: id)
                acl.setWriteAccess(enabled: true, forUserId: id)
                let object = BmobObject(className: "Private")
                object["n"] = n
                object.acl = acl
                try await object.save()
                made.append((user.username ?? "", id))
            }
            BmobUser.logout()
            return Accounts(a: made[0], b: made[1])
        }

        /// `Private` in `n` order through `client` (the shared one unless given), with `policy`.
        private func numbers(_ policy: BmobCachePolicy, client: BmobClient = .shared) async throws -> [Int] {
            var query = BmobQuery(className: "Private").order(byAscending: "n")
            query.client = client
            query.cachePolicy = policy
            return try await query.find().compactMap { $0["n"] as? Int }
        }

        /// Whether a `cacheOnly` query finds nothing cached (code 120).
        private func nothingCached(client: BmobClient = .shared) async -> Bool {
            do {
                _ = try await numbers(.cacheOnly, client: client)
                return false
            } catch {
                if case .serverError(120, _)? = error as? BmobError { return true }
                return false
            }
        }

        /// The files under the app's cache folder.
        private func cachedFiles() -> [String] {
            let root = BmobLocalStorage.root.appendingPathComponent("query-cache", isDirectory: true)
            let files = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
            return files.filter { $0.hasSuffix(".json") }
        }

        @Test("user A's answer is served neither to user B nor to an anonymous caller")
        func answersStayWithTheirUser() async throws {
            let accounts = try await Self.accounts.value
            _ = try await BmobUser.login(username: accounts.a.name, password: Self.password)
            #expect(try await numbers(.networkOnly) == [0, 1])
            #expect(try await numbers(.cacheOnly) == [0, 1])

            // Another login: B sees its own objects, never A's cached answer.
            _ = try await BmobUser.login(username: accounts.b.name, password: Self.password)
            #expect(await nothingCached())
            #expect(try await numbers(.cacheElseNetwork) == [0, 2])
            #expect(try await numbers(.cacheThenNetwork) == [0, 2])

            BmobUser.logout()
            #expect(await nothingCached())
            #expect(try await numbers(.networkElseCache) == [0])
            #expect(try await numbers(.cacheOnly) == [0])
        }

        @Test("entries are keyed by user even when nothing clears them")
        func keyedByUser() async throws {
            let accounts = try await Self.accounts.value
            let server = try await SDKFixture.server()
            let a = try await BmobUser.login(username: accounts.a.name, password: Self.password)
            let b = try await BmobUser.login(username: accounts.b.name, password: Self.password)
            BmobUser.logout()
            // A client of its own, whose user is set directly: no facade, so no clearing.
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            client.setUser(objectId: a.objectId, sessionToken: a.sessionToken)
            #expect(try await numbers(.networkOnly, client: client) == [0, 1])

            client.setUser(objectId: b.objectId, sessionToken: b.sessionToken)
            #expect(await nothingCached(client: client))
            client.setUser(objectId: nil, sessionToken: nil)
            #expect(await nothingCached(client: client))
            // A's own answer is still there for A.
            client.setUser(objectId: a.objectId, sessionToken: a.sessionToken)
            #expect(try await numbers(.cacheOnly, client: client) == [0, 1])
            BmobQueryCache.clear(appKey: TestServer.applicationId)
        }

        @Test("logout removes every cached answer of the app")
        func logoutClears() async throws {
            let accounts = try await Self.accounts.value
            BmobUser.logout()
            #expect(try await numbers(.networkOnly) == [0])
            _ = try await BmobUser.login(username: accounts.a.name, password: Self.password)
            #expect(try await numbers(.networkOnly) == [0, 1])
            #expect(!cachedFiles().isEmpty)

            BmobUser.logout()
            #expect(cachedFiles().isEmpty)
            // Logging in again finds nothing: the answer was removed, not only hidden.
            _ = try await BmobUser.login(username: accounts.a.name, password: Self.password)
            #expect(await nothingCached())
            BmobUser.logout()
        }

        @Test("a restored user keeps its own answers and drops everyone else's")
        func restore() async throws {
            let accounts = try await Self.accounts.value
            _ = try await BmobUser.login(username: accounts.a.name, password: Self.password)
            #expect(try await numbers(.networkOnly) == [0, 1])
            let savedA = try #require(BmobCurrentUserStore.load(appKey: TestServer.applicationId))
            // The same user restored (a relaunch): its answers are still there.
            await BmobUser.restoreCurrent()
            #expect(try await numbers(.cacheOnly) == [0, 1])

            // B logs in and caches; then the device's saved user turns out to be A (B's session was never saved
            // there, say): restoring A must not leave B's answers behind.
            let b = try await BmobUser.login(username: accounts.b.name, password: Self.password)
            #expect(try await numbers(.networkOnly) == [0, 2])
            BmobCurrentUserStore.save(savedA, appKey: TestServer.applicationId)
            await BmobUser.restoreCurrent()
            #expect(BmobUser.current?.username == accounts.a.name)
            #expect(await nothingCached())
            let server = try await SDKFixture.server()
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            client.setUser(objectId: b.objectId, sessionToken: b.sessionToken)
            #expect(await nothingCached(client: client))
            BmobUser.logout()
        }

        @Test("an answer arriving after the user changed is not stored")
        func lateAnswerIsDropped() async throws {
            _ = try await Self.accounts.value
            let client = BmobClient()
            let owner = BmobQueryCache.Owner(client: client)
            client.setUser(objectId: "someone", sessionToken: "token")
            client.setUser(objectId: nil, sessionToken: nil)
            let request: JSONValue = ["c": "Private", "data": [:]]
            BmobQueryCache.write(owner, route: "find", request: request, answer: ["results": []])
            #expect(BmobQueryCache.read(BmobQueryCache.Owner(client: client), route: "find", request: request) == nil)
            // The same write with a current owner is stored.
            let current = BmobQueryCache.Owner(client: client)
            BmobQueryCache.write(current, route: "find", request: request, answer: ["results": []])
            #expect(BmobQueryCache.read(BmobQueryCache.Owner(client: client), route: "find", request: request) != nil)
            BmobQueryCache.clear(appKey: "")
        }
    }
}
