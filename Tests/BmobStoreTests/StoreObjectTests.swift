import BmobStore
import BmobWire
import Testing

@Suite("Store objects and journal")
struct StoreObjectTests {
    @Test(arguments: StoreEngine.allCases)
    func insertFetchUpdateDeleteRoundTrip(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let post = Fixtures.post("p1")
            try await store.write(caller: nil) { try $0.insert(post) }
            #expect(try await store.read { try $0.fetch(className: "Post", objectId: "p1") } == post)
            #expect(try await store.read { try $0.count(className: "Post") } == 1)
            #expect(try await store.read { try $0.classNames() } == ["Post"])

            var changed = post
            changed.fields["title"] = "changed"
            changed.fields["tags"] = ["a", "b"]
            changed.acl = nil
            changed.updatedAt = 2000
            try await store.write(caller: nil) { [changed] in try $0.update(changed) }
            #expect(try await store.read { try $0.fetch(className: "Post", objectId: "p1") } == changed)

            let deleted = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "p1") }
            #expect(deleted == changed)
            #expect(try await store.read { try $0.fetch(className: "Post", objectId: "p1") } == nil)
            #expect(try await store.read { try $0.count(className: "Post") } == 0)
        }
    }

    @Test("writes that alternate between classes reach each class's own table", arguments: StoreEngine.allCases)
    func alternatingClassesKeepTheirTables(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            // Each kind of class-table statement keeps the text it built last; switching classes must rebuild it.
            for index in 0..<3 {
                for className in ["Post", "Comment", "Post2"] {
                    let object = StoredObject(
                        className: className, objectId: "\(className.lowercased())\(index)", createdAt: 1, updatedAt: 1,
                        fields: ["n": .int(Int64(index))])
                    try await store.write(caller: nil) { try $0.insert(object) }
                }
            }
            for className in ["Post", "Comment", "Post2"] {
                #expect(try await store.read { try $0.count(className: className) } == 3)
                let fetched = try await store.read { try $0.fetch(className: className, objectId: "\(className.lowercased())1") }
                #expect(fetched?.className == className && fetched?.fields["n"] == .int(1))
                let foreign = try await store.read { try $0.fetch(className: className, objectId: "post1") }
                #expect((foreign != nil) == (className == "Post"))
            }
            let moved = StoredObject(className: "Comment", objectId: "comment2", createdAt: 1, updatedAt: 5, fields: ["n": .int(7)])
            try await store.write(caller: nil) { [moved] in try $0.update(moved) }
            _ = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "post2") }
            #expect(try await store.read { try $0.fetch(className: "Comment", objectId: "comment2") } == moved)
            #expect(try await store.read { try $0.count(className: "Post") } == 2)
            #expect(try await store.read { try $0.count(className: "Comment") } == 3)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func readsOfUnknownClassesFindNothing(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            #expect(try await store.read { try $0.fetch(className: "Nothing", objectId: "x") } == nil)
            #expect(try await store.read { try $0.count(className: "Nothing") } == 0)
            #expect(try await store.read { try $0.schema(className: "Nothing") }.isEmpty)
            #expect(try await store.write(caller: nil) { try $0.fetch(className: "Nothing", objectId: "x") } == nil)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func journalRecordsEveryWriteWithBeforeAfterCallerAndTime(engine: StoreEngine) async throws {
        let clock = TestClock(5_000)
        try await engine.withStore(clock: clock) { store, _ async throws in
            let post = Fixtures.post("p1")
            clock.now = 10_000
            try await store.write(caller: "user:alice") { try $0.insert(post) }
            var changed = post
            changed.fields["title"] = "changed"
            clock.now = 20_000
            try await store.write(caller: "master") { [changed] in try $0.update(changed) }
            clock.now = 30_000
            _ = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "p1") }

            let entries = try await store.journal(after: 0, limit: 100)
            // The first insert created the class: a schema entry comes first.
            #expect(
                entries == [
                    JournalEntry(
                        seq: 1, className: "Post", objectId: nil, op: .schema, before: nil,
                        after: StoredClassSchema().json, caller: "user:alice", time: 10_000),
                    JournalEntry(
                        seq: 2, className: "Post", objectId: "p1", op: .create, before: nil, after: post.json,
                        caller: "user:alice", time: 10_000),
                    JournalEntry(
                        seq: 3, className: "Post", objectId: "p1", op: .update, before: post.json,
                        after: changed.json, caller: "master", time: 20_000),
                    JournalEntry(
                        seq: 4, className: "Post", objectId: "p1", op: .delete, before: changed.json, after: nil,
                        caller: nil, time: 30_000),
                ])
            #expect(try await store.journal(after: 2, limit: 1).map(\.seq) == [3])
            #expect(try await store.read { try $0.lastJournalSeq() } == 4)
            // The journal form reads back as the object.
            #expect(StoredObject(className: "Post", json: try #require(entries[2].after)) == changed)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func journalRowIsPartOfTheWriteTransaction(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let seqInside = try await store.write(caller: nil) { transaction in
                try transaction.insert(Fixtures.post("p1"))
                return try transaction.lastJournalSeq()
            }
            #expect(seqInside == 2)
            // A reader that started after COMMIT sees data and journal row together.
            let (object, seq) = try await store.read { transaction in
                (try transaction.fetch(className: "Post", objectId: "p1"), try transaction.lastJournalSeq())
            }
            #expect(object != nil)
            #expect(seq == 2)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func failedWriteLeavesNoDataJournalOrSchema(engine: StoreEngine) async throws {
        try await engine.withStore { store, database async throws in
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("p0")) }
            await #expect(throws: Rollback.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.recordFields(className: "Comment", fields: ["text": .init(type: .string)])
                    try transaction.insert(
                        StoredObject(className: "Comment", objectId: "c1", createdAt: 1, updatedAt: 1))
                    try transaction.recordFields(className: "Post", fields: ["title": .init(type: .string)])
                    try transaction.update(Fixtures.post("p0", title: "changed"))
                    throw Rollback()
                }
            }
            try await expectOnlyFirstPost(store)
            // The next write must not see the rolled-back fields either.
            let schema = try await store.write(caller: nil) { transaction in
                (try transaction.schema(className: "Post"), try transaction.classNames())
            }
            #expect(schema.0.isEmpty)
            #expect(schema.1 == ["Post"])

            await store.close()
            let reopened = try await database.open()
            try await expectOnlyFirstPost(reopened)
            await reopened.close()
        }
    }

    private func expectOnlyFirstPost(_ store: any Store) async throws {
        let state = try await store.read { transaction in
            (
                try transaction.fetch(className: "Post", objectId: "p0"),
                try transaction.fetch(className: "Comment", objectId: "c1"),
                try transaction.count(className: "Comment"),
                try transaction.classNames(),
                try transaction.schema(className: "Comment"),
                try transaction.schema(className: "Post")
            )
        }
        #expect(state.0 == Fixtures.post("p0"))
        #expect(state.1 == nil)
        #expect(state.2 == 0)
        #expect(state.3 == ["Post"])
        #expect(state.4.isEmpty)
        #expect(state.5.isEmpty)
        #expect(try await store.journal(after: 0, limit: 10).map(\.op) == [.schema, .create])
    }

    @Test(arguments: StoreEngine.allCases)
    func insertingATakenObjectIdThrowsObjectIdTaken(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("p1")) }
            let error = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { try $0.insert(Fixtures.post("p1", title: "again")) }
            }
            #expect(error?.code == .objectIdTaken)
            #expect(error?.isObjectIdCollision == true)
            #expect(error?.bmobCode == .duplicateValue)
            #expect(try await store.read { try $0.fetch(className: "Post", objectId: "p1") } == Fixtures.post("p1"))
            #expect(try await store.journal(after: 0, limit: 10).map(\.op) == [.schema, .create])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func updateAndDeleteOfMissingObjectsThrowNotFound(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            // Unknown class, then known class with an unknown objectId.
            for setup in [false, true] {
                if setup { try await store.write(caller: nil) { try $0.insert(Fixtures.post("other")) } }
                let updateError = await #expect(throws: StoreError.self) {
                    try await store.write(caller: nil) { try $0.update(Fixtures.post("missing")) }
                }
                #expect(updateError?.code == .notFound)
                let deleteError = await #expect(throws: StoreError.self) {
                    try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "missing") }
                }
                #expect(deleteError?.code == .notFound)
                #expect(deleteError?.bmobCode == .objectNotFound)
            }
            #expect(try await store.journal(after: 0, limit: 10).map(\.op) == [.schema, .create])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func dropClassRemovesObjectsSchemaAndIsJournaled(engine: StoreEngine) async throws {
        try await engine.withStore { store, database async throws in
            try await store.write(caller: "master") { transaction in
                try transaction.recordFields(className: "Post", fields: ["title": .init(type: .string)])
                try transaction.insert(Fixtures.post("p1"))
                try transaction.insert(Fixtures.post("p2"))
                try transaction.insert(
                    StoredObject(className: "Keep", objectId: "k1", createdAt: 1, updatedAt: 1))
            }
            try await store.write(caller: "master") { try $0.dropClass(className: "Post") }
            let state = try await store.read { transaction in
                (
                    try transaction.classNames(), try transaction.count(className: "Post"),
                    try transaction.fetch(className: "Post", objectId: "p1"), try transaction.schema(className: "Post")
                )
            }
            #expect(state.0 == ["Keep"])
            #expect(state.1 == 0)
            #expect(state.2 == nil)
            #expect(state.3.isEmpty)
            // The drop journals every object it removed, then the class with its last schema.
            let entries = try await store.journal(after: 0, limit: 20)
            let drop = Array(entries.suffix(3))
            #expect(drop.map(\.op) == [.dropClassObject, .dropClassObject, .dropClass])
            #expect(drop.map(\.objectId) == ["p1", "p2", nil])
            #expect(drop[0].before == Fixtures.post("p1").json)
            #expect(drop.allSatisfy { $0.className == "Post" && $0.caller == "master" && $0.after == nil })
            #expect(
                drop[2].before.flatMap(StoredClassSchema.init(json:))
                    == StoredClassSchema(fields: ["title": .init(type: .string)]))

            let error = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { try $0.dropClass(className: "Post") }
            }
            #expect(error?.code == .notFound)

            // The class can come back, empty, with a new schema.
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(className: "Post", fields: ["title": .init(type: .number)])
                try transaction.insert(Fixtures.post("p3"))
            }
            #expect(try await store.read { try $0.count(className: "Post") } == 1)

            await store.close()
            let reopened = try await database.open()
            #expect(try await reopened.read { try $0.classNames() } == ["Keep", "Post"])
            #expect(try await reopened.read { try $0.schema(className: "Post") } == ["title": .init(type: .number)])
            await reopened.close()
        }
    }

    @Test(arguments: StoreEngine.allCases, [
        "", "1Post", "_Secret", "__journal", "__schema", "Post\"; DROP TABLE x; --", "Po st", "sqlite_master", "SQLite_Stat1",
        "SQLITE_temp", String(repeating: "a", count: 129),
    ])
    func invalidClassNamesAreRejectedBeforeSQL(engine: StoreEngine, name: String) async throws {
        try await engine.withStore { store, _ async throws in
            let object = StoredObject(className: name, objectId: "x", createdAt: 1, updatedAt: 1)
            let operations: [@Sendable (any StoreWriteTransaction) throws -> Void] = [
                { try $0.insert(object) },
                { try $0.update(object) },
                { _ = try $0.delete(className: name, objectId: "x") },
                { _ = try $0.fetch(className: name, objectId: "x") },
                { _ = try $0.count(className: name) },
                { _ = try $0.schema(className: name) },
                { try $0.recordFields(className: name, fields: ["a": .init(type: .string)]) },
                { try $0.dropClass(className: name) },
            ]
            for operation in operations {
                let error = await #expect(throws: StoreError.self) { try await store.write(caller: nil, operation) }
                #expect(error?.code == .invalidClassName)
                #expect(error?.bmobCode == .invalidClassName)
            }
            let readError = await #expect(throws: StoreError.self) {
                try await store.read { try $0.fetch(className: name, objectId: "x") }
            }
            #expect(readError?.code == .invalidClassName)
            #expect(try await store.read { try $0.classNames() }.isEmpty)
            #expect(try await store.journal(after: 0, limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func systemClassNamesAreAccepted(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await store.write(caller: nil) { transaction in
                for name in ["_User", "_Role", "_Installation", "_Session"] {
                    try transaction.insert(StoredObject(className: name, objectId: "x", createdAt: 1, updatedAt: 1))
                }
            }
            #expect(try await store.read { try $0.classNames() } == ["_Installation", "_Role", "_Session", "_User"])
        }
    }
}
