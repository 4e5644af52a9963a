import BmobStore
import BmobWire
import Testing

/// Declared indexes: uniqueness, listing and dropping.
@Suite("Store indexes")
struct StoreIndexTests {
    private typealias F = QueryFixtures

    @Test(arguments: StoreEngine.allCases)
    func uniqueIndexRejectsDuplicateValues(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
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

    @Test(arguments: StoreEngine.allCases)
    func uniqueIndexOverExistingDuplicatesFails(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
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
            #expect(try await store.read { try $0.indexes(className: "Post").map(\.paths) } == [])
            // The same index without uniqueness is fine, and making it unique later rebuilds it.
            try await store.write(caller: nil) { try $0.createIndex(className: "Post", paths: ["slug"], unique: false) }
            _ = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "p2") }
            try await store.write(caller: nil) { try $0.createIndex(className: "Post", paths: ["slug"], unique: true) }
            // The listing says which indexes are unique (exports and /1/schemas carry it).
            #expect(try await store.read { try $0.indexes(className: "Post") } == [StoredIndex(paths: ["slug"], unique: true)])
            await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { try $0.insert(F.object("Post", "p3", ["slug": "x"])) }
            }
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func indexesAreListedDroppedAndGoWithTheirClass(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
                try transaction.createIndex(className: "Post", paths: ["author.name", "score"], unique: false)
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
                try transaction.createIndex(className: "Other", paths: ["createdAt"], unique: false)
            }
            // Declaring an index creates its class.
            #expect(try await store.read { try $0.classNames() } == ["Other", "Post"])
            #expect(
                try await store.read { try $0.indexes(className: "Post").map(\.paths) } == [["score"], ["author.name", "score"]])
            try await store.write(caller: nil) { try $0.dropIndex(className: "Post", paths: ["score"]) }
            #expect(try await store.read { try $0.indexes(className: "Post").map(\.paths) } == [["author.name", "score"]])
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
            #expect(try await store.read { try $0.indexes(className: "Post").map(\.paths) } == [])
            try await store.write(caller: nil) { transaction in
                try transaction.insert(F.object("Post", "p1", ["score": 1]))
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
            }
            #expect(try await store.read { try $0.indexes(className: "Post").map(\.paths) } == [["score"]])
            #expect(try await store.read { try $0.indexes(className: "Other").map(\.paths) } == [["createdAt"]])
        }
    }
}
