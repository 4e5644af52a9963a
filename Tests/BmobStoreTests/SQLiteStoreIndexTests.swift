import BmobStore
import BmobTesting
import BmobWire
import Testing

/// SQLite's query plans prove that queries use the expression indexes declared for their fields.
@Suite("SQLiteStore index use", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreIndexTests {
    private typealias F = QueryFixtures

    /// The query plan proves that `where score > …` + `order score` + limit 20 runs on the declared index:
    /// a SEARCH using it, no full scan, no sort.
    @Test func rangeAndOrderOnAnIndexedFieldUseTheIndex() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Post", fields: ["score": .init(type: .number), "title": .init(type: .string)])
                for index in 0..<200 {
                    let score = (index * 37) % 200
                    try transaction.insert(
                        F.object("Post", "p\(index)", ["score": .int(Int64(score)), "title": .string("t\(score)")]))
                }
            }
            let query = FindQuery(
                className: "Post", condition: .field(path: "score", constraints: [.greaterThan(150)]),
                order: [OrderKey(path: "score")], limit: 20)

            let before = try await store.explain(query)
            #expect(before.scans(table: "Post"))

            try await store.write(caller: nil) {
                try $0.createIndex(className: "Post", paths: ["score"], unique: false)
            }
            let plan = try await store.explain(query)
            #expect(plan.sql.contains("WHERE json_extract(data, '$.score') > ? ORDER BY json_extract(data, '$.score')"))
            #expect(plan.details.contains { $0.hasPrefix("SEARCH Post USING INDEX __index_Post_") }, "\(plan.details)")
            #expect(!plan.scans(table: "Post"), "\(plan.details)")
            #expect(!plan.details.contains { $0.contains("TEMP B-TREE") }, "\(plan.details)")

            let found = try await store.read { try $0.find(query) }
            #expect(found.compactMap { $0.fields["score"]?.int64Value } == Array(151...170))
        }
    }

    @Test func dateAndPointerIndexesServeTheirComparisons() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await F.seedGames(store)
            try await store.write(caller: nil) { transaction in
                try transaction.createIndex(className: "Game", paths: ["birthday"], unique: false)
                try transaction.createIndex(className: "Game", paths: ["owner"], unique: false)
                try transaction.createIndex(className: "Game", paths: ["createdAt"], unique: false)
            }
            let byDate = try await store.explain(
                FindQuery(
                    className: "Game",
                    condition: .field(path: "birthday", constraints: [.greaterThan(F.date("2020-06-01 00:00:00"))])))
            #expect(byDate.details.contains { $0.contains("USING INDEX __index_Game_") }, "\(byDate.details)")
            let byOwner = try await store.explain(
                FindQuery(
                    className: "Game",
                    condition: .field(path: "owner", constraints: [.equalTo(F.pointer("_User", "u1"))])))
            #expect(byOwner.details.contains { $0.contains("USING INDEX __index_Game_") }, "\(byOwner.details)")
            let byCreation = try await store.explain(
                FindQuery(
                    className: "Game",
                    condition: .field(path: "createdAt", constraints: [.equalTo(F.date("2024-01-01 10:00:00"))])))
            #expect(byCreation.details.contains { $0.contains("USING INDEX __index_Game_") }, "\(byCreation.details)")
            // The results are the same with the indexes.
            #expect(try await F.games(store, "birthday", .greaterThan(F.date("2020-06-01 00:00:00"))) == ["g2"])
            #expect(try await F.games(store, "owner", .equalTo(F.pointer("_User", "u1"))) == ["g1", "g3"])
        }
    }
}
