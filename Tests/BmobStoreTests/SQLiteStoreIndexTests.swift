import BmobStore
import BmobWire
import Testing

/// Declared indexes: uniqueness, listing and dropping, and the query plan proving queries use them.
@Suite("SQLiteStore indexes")
struct SQLiteStoreIndexTests {
    private typealias F = QueryFixtures

    @Test func uniqueIndexRejectsDuplicateValues() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.createIndex(className: "_User", paths: ["email"], unique: true)
                try transaction.insert(F.object("_User", "u1", ["email": "a@example.com"]))
                // Objects without the field do not collide.
                try transaction.insert(F.object("_User", "u2", [:]))
                try transaction.insert(F.object("_User", "u3", [:]))
            }
            let insert = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.insert(F.object("_User", "u4", ["email": "a@example.com"]))
                }
            }
            #expect(insert?.code == .duplicate)
            #expect(insert?.bmobCode == .duplicateValue)
            #expect(insert?.bmobCode.rawValue == 401)
            #expect(insert?.description.contains("a@example.com") == false)

            let update = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.update(F.object("_User", "u2", ["email": "a@example.com"]))
                }
            }
            #expect(update?.code == .duplicate)
            #expect(try await store.read { try $0.count(className: "_User") } == 3)
        }
    }

    @Test func uniqueIndexOverExistingDuplicatesFails() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.insert(F.object("Post", "p1", ["slug": "x"]))
                try transaction.insert(F.object("Post", "p2", ["slug": "x"]))
            }
            let error = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.createIndex(className: "Post", paths: ["slug"], unique: true)
                }
            }
            #expect(error?.code == .duplicate)
            #expect(try await store.read { try $0.indexes(className: "Post") } == [])
            // The same index without uniqueness is fine, and making it unique later rebuilds it.
            try await store.write(caller: nil) { try $0.createIndex(className: "Post", paths: ["slug"], unique: false) }
            _ = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "p2") }
            try await store.write(caller: nil) { try $0.createIndex(className: "Post", paths: ["slug"], unique: true) }
            await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { try $0.insert(F.object("Post", "p3", ["slug": "x"])) }
            }
        }
    }

    @Test func indexesAreListedDroppedAndGoWithTheirClass() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
                try transaction.createIndex(className: "Post", paths: ["author.name", "score"], unique: false)
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
                try transaction.createIndex(className: "Other", paths: ["createdAt"], unique: false)
            }
            // Declaring an index creates its class.
            #expect(try await store.read { try $0.classNames() } == ["Other", "Post"])
            #expect(
                try await store.read { try $0.indexes(className: "Post") } == [["score"], ["author.name", "score"]])
            try await store.write(caller: nil) { try $0.dropIndex(className: "Post", paths: ["score"]) }
            #expect(try await store.read { try $0.indexes(className: "Post") } == [["author.name", "score"]])
            let missing = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { try $0.dropIndex(className: "Post", paths: ["score"]) }
            }
            #expect(missing?.code == .notFound)
            let invalid = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) {
                    try $0.createIndex(className: "Post", paths: ["a b"], unique: false)
                }
            }
            #expect(invalid?.code == .invalidFieldName)

            try await store.write(caller: nil) { try $0.dropClass(className: "Post") }
            #expect(try await store.read { try $0.indexes(className: "Post") } == [])
            try await store.write(caller: nil) { transaction in
                try transaction.insert(F.object("Post", "p1", ["score": 1]))
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
            }
            #expect(try await store.read { try $0.indexes(className: "Post") } == [["score"]])
            #expect(try await store.read { try $0.indexes(className: "Other") } == [["createdAt"]])
        }
    }

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
