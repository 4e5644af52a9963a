import BmobStore
import BmobTesting
import BmobWire
import Testing

/// Reads on their caller's thread (``SQLiteReaderPool``): a short read runs where it is asked when a reader
/// connection is free, a longer one stops at the caller's small budget and runs again on a reader thread. Either
/// way the answer, and the errors, are those of a read on a reader thread.
@Suite("SQLiteStore reads on the caller's thread", .enabled(if: !TestPostgres.isSelected, "SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreCallerReadTests {
    private typealias F = QueryFixtures

    /// Enough rows that counting them by a field (no index) takes more than a caller's budget.
    static let rowCount = 10_000

    private func withSeededStore(
        readerCount: Int = 2,
        limits: SQLiteStore.WorkLimits = SQLiteStore.WorkLimits(),
        _ body: (SQLiteStore) async throws -> Void
    ) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let store = try await SQLiteStore.open(
            .init(path: database.path, readerCount: readerCount, clock: { F.newYear }, workLimits: limits))
        do {
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(className: "Row", fields: ["n": .init(type: .number), "text": .init(type: .string)])
                for index in 0..<Self.rowCount {
                    try transaction.insert(F.object("Row", "r\(index)", ["n": .int(Int64(index)), "text": .string("row \(index)")]))
                }
            }
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private func below(_ value: Int64) -> FindQuery {
        FindQuery(className: "Row", condition: .field(path: "n", constraints: [.lessThan(.int(value))]), limit: 0, count: true)
    }

    @Test func aLongReadMovesToAReaderThreadAndAnswersInFull() async throws {
        try await withSeededStore { store in
            // Counting 10,000 rows by an unindexed field runs well past a caller's budget.
            let count = try await store.read { try $0.count(below(Int64(Self.rowCount))) }
            #expect(count == Self.rowCount)
            let object = try await store.read { try $0.fetch(className: "Row", objectId: "r42") }
            #expect(object?.fields["n"] == .int(42))
        }
    }

    @Test func shortAndLongReadsTogetherAllAnswerRight() async throws {
        try await withSeededStore(readerCount: 2) { store in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        if index % 4 == 0 {
                            let limit = Int64(1_000 + index)
                            return try await store.read { try $0.count(below(limit)) } == Int(limit)
                        }
                        let id = "r\(index * 7)"
                        return try await store.read { try $0.fetchDocument(className: "Row", objectId: id) }?.objectId == id
                    }
                }
                for try await answered in group { #expect(answered) }
            }
        }
    }

    @Test func aRegexPastTheCallersBudgetRunsAgainWithItsOwnLimit() async throws {
        try await withSeededStore { store in
            let query = FindQuery(
                className: "Row", condition: .field(path: "text", constraints: [.matchesRegex(pattern: "^row 29", options: "")]),
                limit: 0, count: true)
            // 10,000 evaluations: far more steps than a caller may spend, far fewer than a read may.
            let count = try await store.read { try $0.count(query) }
            #expect(count == 111)
        }
    }

    @Test func aReadOverTheQueryLimitIsStillRefusedWith102() async throws {
        try await withSeededStore(limits: SQLiteStore.WorkLimits(queryWork: 25_000)) { store in
            await #expect {
                _ = try await store.read { try $0.count(below(Int64(Self.rowCount))) }
            } throws: { error in
                (error as? StoreError)?.code == .invalidQuery
            }
            // The connection serves the next read, on the caller's thread or a reader's.
            let object = try await store.read { try $0.fetch(className: "Row", objectId: "r7") }
            #expect(object?.objectId == "r7")
        }
    }

    @Test func aGetOfAMissingOrMalformedIdFindsNothing() async throws {
        try await withSeededStore { store in
            for id in ["", "nope", String(repeating: "x", count: 10_000), "r1' OR '1'='1", "r1\u{0}"] {
                let document = try await store.read { try $0.fetchDocument(className: "Row", objectId: id) }
                #expect(document == nil)
            }
            let missing = try await store.read { try $0.fetchDocument(className: "Missing", objectId: "r1") }
            #expect(missing == nil)
            await #expect(throws: StoreError.self) {
                _ = try await store.read { try $0.fetchDocument(className: "bad name!", objectId: "r1") }
            }
        }
    }
}
