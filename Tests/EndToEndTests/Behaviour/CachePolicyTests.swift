import BmobCore
import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

extension EndToEnd {
    @Suite("Query cache policies")
    struct CachePolicyTests {
        /// A query of `Cached` through `client`, with `policy`.
        private func query(_ client: BmobClient, _ policy: BmobCachePolicy) -> BmobQuery {
            var query = BmobQuery(className: "Cached").order(byAscending: "n")
            query.client = client
            query.cachePolicy = policy
            return query
        }

        private func numbers(_ query: BmobQuery) async throws -> [Int] {
            try await query.find().compactMap { $0["n"] as? Int }
        }

        @Test("every policy against a server that later goes away")
        func policies() async throws {
            _ = try await SDKFixture.server()  // the SDK's cache folder
            let server = try await TestServer.start()
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            let create: (Int) async throws -> Void = { n in
                let response = try await server.request(
                    "POST", "/1/classes/Cached", headers: server.appHeaders + [("Content-Type", "application/json")],
                    body: Array(#"{"n":\#(n)}"#.utf8))
                #expect(response.status == 201)
            }
            try await create(1)

            // cacheOnly before anything is cached: code 120.
            await #expect {
                _ = try await query(client, .cacheOnly).find()
            } throws: { error in
                if case .serverError(120, _)? = error as? BmobError { return true }
                return false
            }
            // ignoreCache reads the network and stores nothing.
            #expect(try await numbers(query(client, .ignoreCache)) == [1])
            await #expect(throws: BmobError.self) { _ = try await query(client, .cacheOnly).find() }
            // networkOnly stores the answer; cacheOnly then serves it.
            #expect(try await numbers(query(client, .networkOnly)) == [1])
            #expect(try await numbers(query(client, .cacheOnly)) == [1])

            try await create(2)
            // cacheElseNetwork: a fresh cache wins; an expired one goes to the network.
            #expect(try await numbers(query(client, .cacheElseNetwork)) == [1])
            var expired = query(client, .cacheElseNetwork)
            expired.maxCacheAge = 0
            try await Task.sleep(for: .milliseconds(10))
            #expect(try await numbers(expired) == [1, 2])
            // networkElseCache: the network while it answers.
            #expect(try await numbers(query(client, .networkElseCache)) == [1, 2])

            await server.stop()
            // …and the cache when it does not; networkOnly has nothing to fall back on.
            #expect(try await numbers(query(client, .networkElseCache)) == [1, 2])
            await #expect {
                _ = try await query(client, .networkOnly).find()
            } throws: { error in
                if case .networkError? = error as? BmobError { return true }
                return false
            }
            // cacheThenNetwork answers from the cache even with the server gone.
            #expect(try await numbers(query(client, .cacheThenNetwork)) == [1, 2])
            // A different query was never cached.
            let other = query(client, .networkElseCache).whereKey("n", equalTo: 2)
            await #expect(throws: BmobError.self) { _ = try await other.find() }
        }
    }
}
