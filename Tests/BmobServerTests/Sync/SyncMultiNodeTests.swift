import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Live queries across server nodes sharing one PostgreSQL database: every node re-runs its live queries from the
/// shared journal, so a write made on any node updates subscribers on every node.
@Suite(
    "Sync across several nodes on PostgreSQL",
    .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct SyncMultiNodeTests {
    @Test("another node's write, REST or sync mutation, updates a live query and reaches the mutation's ts")
    func anotherNodesWriteUpdatesALiveQuery() async throws {
        try await withPostgresNodes(2) { nodes, _ in
            let watcher = try await SyncTestClient.connect(nodes[0])
            try await watcher.subscribe(0, "notes:list", ["order": "createdAt"])
            #expect(try await watcher.nextValue(0) == [])
            _ = try await nodes[1].create("notes", ["text": "from node 1 over REST"])
            #expect(try await watcher.nextValue(0).arrayValue?.map { $0["text"] } == ["from node 1 over REST"])

            let writer = try await SyncTestClient.connect(nodes[1])
            try await writer.subscribe(0, "notes:list", ["order": "createdAt"])
            _ = try await writer.nextValue(0)
            try await writer.mutation(1, "notes:add", ["text": "from node 1 over sync"])
            let response = try await writer.mutationResponse(1)
            let seen = try await watcher.nextValue(0)
            #expect(seen.arrayValue?.map { $0["text"] } == ["from node 1 over REST", "from node 1 over sync"])
            #expect(watcher.version.ts >= (response.ts ?? .max))
        }
    }
}
