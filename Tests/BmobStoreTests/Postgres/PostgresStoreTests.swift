@testable import BmobStore
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

    @Test("a read of one statement runs once, without a transaction; a read of two runs again in one snapshot")
    func readsWithoutATransaction() async throws {
        let app = appId()
        defer { TestPostgres.dropSchema(of: app) }
        let store = try await PostgresStore.open(try configuration(app))
        try await store.write(caller: nil) { transaction in
            try transaction.insert(StoredObject(className: "Item", objectId: "a", createdAt: 1, updatedAt: 1, fields: ["n": 1]))
        }
        let runs = Atomic<Int>(0)
        let one = try await store.read { transaction in
            runs.add(1, ordering: .relaxed)
            return try transaction.fetch(className: "Item", objectId: "a")?.fields["n"]
        }
        #expect(one == 1)
        #expect(runs.load(ordering: .relaxed) == 1)

        runs.store(0, ordering: .relaxed)
        let both = try await store.read { transaction in
            runs.add(1, ordering: .relaxed)
            return (try transaction.count(className: "Item"), try transaction.fetch(className: "Item", objectId: "a") != nil)
        }
        #expect(both == (1, true))
        #expect(runs.load(ordering: .relaxed) == 2)

        // A read that swallows the refusal of its second statement still runs again: its first answer may rest on it.
        runs.store(0, ordering: .relaxed)
        let answered = try await store.read { transaction in
            runs.add(1, ordering: .relaxed)
            _ = try transaction.count(className: "Item")
            return (try? transaction.fetch(className: "Item", objectId: "a")) != nil
        }
        #expect(answered)
        #expect(runs.load(ordering: .relaxed) == 2)
        await store.close()
    }

    @Test("behind a transaction-mode pooler (a listener URL of its own) every read is one transaction from its start")
    func readsBehindAPooler() async throws {
        let app = appId()
        defer { TestPostgres.dropSchema(of: app) }
        var settings = try configuration(app)
        settings.listenURL = settings.url + (settings.url.contains("?") ? "&" : "?") + "application_name=bmob-listener"
        #expect(settings.behindTransactionPooler)
        let store = try await PostgresStore.open(settings)
        try await store.write(caller: nil) { transaction in
            try transaction.insert(StoredObject(className: "Item", objectId: "a", createdAt: 1, updatedAt: 1, fields: [:]))
        }
        let runs = Atomic<Int>(0)
        let both = try await store.read { transaction in
            runs.add(1, ordering: .relaxed)
            return (try transaction.count(className: "Item"), try transaction.fetch(className: "Item", objectId: "a") != nil)
        }
        #expect(both == (1, true))
        #expect(runs.load(ordering: .relaxed) == 1)
        await store.close()
    }

    @Test("an index on a JSON value comes with statistics on the value's type, so a range query is estimated right")
    func indexStatistics() async throws {
        let app = appId()
        defer { TestPostgres.dropSchema(of: app) }
        let store = try await PostgresStore.open(try configuration(app))
        try await store.write(caller: nil) { transaction in
            try transaction.recordFields(className: "Score", fields: ["score": FieldSchema(type: .number)])
            for index in 0..<400 {
                try transaction.insert(
                    StoredObject(
                        className: "Score", objectId: "s\(index)", createdAt: 1, updatedAt: 1,
                        fields: ["score": .int(Int64(index))]))
            }
        }
        try await store.write(caller: nil) { try $0.createIndex(className: "Score", paths: ["score"], unique: false) }
        let name = IndexRows.name(className: "Score", paths: [try SQLFieldPath("score")]).name
        #expect(try Self.statisticsCount(app: app, name: name) == 1)
        // Without them PostgreSQL guesses that 0.5% of the rows hold a number (2 of 400).
        let plan = try Self.onConnection(app: app) { connection in
            try connection.firstRow(
                #"EXPLAIN (FORMAT JSON) SELECT 1 FROM "Score" WHERE jsonb_typeof((data -> 'score')) = 'number'"#, []
            ) { $0.text(0) }
        }
        let text = try #require(plan ?? nil)
        let estimate = try #require(try JSONParser.parse(text).arrayValue?.first?["Plan"]?["Plan Rows"]?.doubleValue)
        #expect(estimate > 300)

        try await store.write(caller: nil) { try $0.dropIndex(className: "Score", paths: ["score"]) }
        #expect(try Self.statisticsCount(app: app, name: name) == 0)
        await store.close()
    }

    /// How many statistics objects are called `name` in the app's schema.
    private static func statisticsCount(app: String, name: String) throws -> Int64? {
        try onConnection(app: app) { connection in
            try connection.firstRow("SELECT count(*) FROM pg_statistic_ext WHERE stxname = ?", [.text(name)]) { $0.int64(0) }
        }
    }

    /// Runs `body` on a connection of its own in the app's schema, opened and closed on this thread (a connection
    /// belongs to the thread that opened it, so none lives across an `await`).
    private static func onConnection<T>(app: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresConnection(url: try TestPostgres.url())
        defer { connection.close() }
        try connection.execute("SET search_path TO \(PostgresSchemaName(applicationId: app).quoted)")
        return try body(connection)
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
