import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// What only the PostgreSQL store has: the query budget as a statement timeout, schemas per app, and two stores on
/// one schema (two server nodes) seeing each other's writes, schema changes and journal.
@Suite("PostgresStore", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct PostgresStoreTests {
    private func configuration(_ applicationId: String, queryWork: Int = StoreWorkLimits.defaultQueryWork) throws
        -> PostgresStore.Configuration
    {
        PostgresStore.Configuration(
            url: try TestPostgres.url(), applicationId: applicationId, readerCount: 2,
            workLimits: StoreWorkLimits(queryWork: queryWork), listenerPollMilliseconds: 50)
    }

    private func appId() -> String {
        "pgstore_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    }

    @Test("a read past the statement timeout fails with 102's code and the store goes on writing")
    func statementTimeout() async throws {
        let app = appId()
        defer { TestPostgres.dropSchema(of: app) }
        // 200,000 steps a millisecond: a budget of 1 step is the 1 ms floor, far below a scan of 10,000 documents.
        let store = try await PostgresStore.open(try configuration(app, queryWork: 1))
        let objects = (0..<10_000).map { index in
            StoredObject(
                className: "Item", objectId: String(format: "item%06d", index), createdAt: 1, updatedAt: 1,
                fields: ["n": .int(Int64(index)), "text": .string(String(repeating: "x", count: 64))])
        }
        try await store.write(caller: nil) { transaction in
            for object in objects { try transaction.insert(object) }
        }
        let scan = FindQuery(
            className: "Item",
            condition: .field(path: "text", constraints: [.matchesRegex(pattern: "y$", options: "i")]))
        await #expect(throws: StoreError.self) { try await store.read { try $0.count(scan) } }
        do {
            _ = try await store.read { try $0.count(scan) }
        } catch let error as StoreError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.hasPrefix("the query needs too much work"))
        }
        // Writes are not held to the readers' budget.
        try await store.write(caller: nil) { transaction in
            try transaction.insert(StoredObject(className: "Item", objectId: "last", createdAt: 1, updatedAt: 1, fields: [:]))
        }
        await store.close()
    }

    @Test("two stores on one app's schema, as two nodes: writes, schema and journal cross over in order")
    func twoNodes() async throws {
        let app = appId()
        defer { TestPostgres.dropSchema(of: app) }
        let nodeA = try await PostgresStore.open(try configuration(app))
        let nodeB = try await PostgresStore.open(try configuration(app))
        let heard = Mutex<[Int64]>([])
        nodeB.observeCommits { seq in heard.withLock { $0.append(seq) } }

        try await nodeA.write(caller: nil) { transaction in
            try transaction.recordFields(className: "Note", fields: ["title": FieldSchema(type: .string)])
            try transaction.insert(
                StoredObject(className: "Note", objectId: "n1", createdAt: 1, updatedAt: 1, fields: ["title": "from A"]))
        }
        // Node B learns of the class from the journal listener, then reads what A wrote.
        try await waitUntil { nodeB.committedJournalSeq >= nodeA.committedJournalSeq }
        try await waitUntil { try await nodeB.read { try $0.schema(className: "Note") }["title"] != nil }
        #expect(try await nodeB.read { try $0.fetch(className: "Note", objectId: "n1") }?.fields["title"] == "from A")

        // B writes into the class A created (its writer reloads the catalog), and A sees it.
        try await nodeB.write(caller: nil) { transaction in
            try transaction.recordFields(className: "Note", fields: ["rank": FieldSchema(type: .number)])
            try transaction.insert(
                StoredObject(className: "Note", objectId: "n2", createdAt: 2, updatedAt: 2, fields: ["rank": 2]))
        }
        try await waitUntil { try await nodeA.read { try $0.schema(className: "Note") }["rank"] != nil }
        #expect(try await nodeA.read { try $0.count(className: "Note") } == 2)

        // Interleaved writes from both nodes: one journal, seqs strictly increasing, nothing lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let node = index % 2 == 0 ? nodeA : nodeB
                group.addTask {
                    try await node.write(caller: nil) { transaction in
                        try transaction.insert(
                            StoredObject(
                                className: "Note", objectId: "w\(index)", createdAt: 3, updatedAt: 3, fields: [:]))
                    }
                }
            }
            try await group.waitForAll()
        }
        let journal = try await nodeB.journal(after: 0, limit: 1000)
        #expect(journal.map(\.seq) == Array(1...Int64(journal.count)))
        #expect(Set(journal.filter { $0.op == .create }.compactMap(\.objectId)).count == 42)
        try await waitUntil { heard.withLock { $0.last } == journal.last?.seq }
        let seen = heard.withLock { $0 }
        #expect(seen == seen.sorted())
        await nodeA.close()
        await nodeB.close()
    }

    /// Polls `condition` for up to 10 seconds.
    private func waitUntil(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<1000 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition did not hold within 10 seconds")
    }
}
