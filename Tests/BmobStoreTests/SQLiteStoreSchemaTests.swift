import BmobStore
import BmobWire
import Testing

/// The SQLite store's named, append-only migrations.
@Suite("SQLiteStore migrations")
struct SQLiteStoreSchemaTests {
    @Test func migrationsAreRecordedOnceAndAppendOnly() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let builtinNames = SQLiteMigration.builtin.map(\.name)

        let first = try await database.open()
        #expect(try await first.appliedMigrations() == builtinNames)
        try await first.write(caller: nil) { try $0.insert(Fixtures.post("p1")) }
        await first.close()

        // Reopening runs nothing again (the migrations' CREATE TABLEs would fail if they ran twice).
        let second = try await database.open()
        #expect(try await second.appliedMigrations() == builtinNames)
        await second.close()

        // A migration appended later runs once, after the earlier ones, and keeps the data.
        let extra = SQLiteMigration(name: "9999-test-extra", sql: "CREATE TABLE \"__test_extra\" (x INTEGER)")
        for _ in 0..<2 {
            let store = try await database.open(migrations: SQLiteMigration.builtin + [extra])
            #expect(try await store.appliedMigrations() == builtinNames + ["9999-test-extra"])
            #expect(try await store.read { try $0.classNames() } == ["Post"])
            #expect(try await store.read { try $0.count(className: "Post") } == 1)
            await store.close()
        }

        // A build that lacks a recorded migration refuses the newer database.
        let error = await #expect(throws: StoreError.self) { try await database.open() }
        #expect(error?.code == .incompatible)
    }

    @Test func journalRebuiltWithoutAutoincrementKeepsItsRowsAndNumbering() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let rebuild = SQLiteMigration.builtin.firstIndex { $0.name == "0008-journal-without-autoincrement" }
        let beforeRebuild = Array(SQLiteMigration.builtin[..<(try #require(rebuild))])

        // A database from before the rebuild: three writes, one of them rolled back inside its group.
        let old = try await database.open(migrations: beforeRebuild)
        try await old.write(caller: "rest") { try $0.insert(Fixtures.post("p1")) }
        await #expect(throws: StoreError.self) {
            try await old.write(caller: "rest") { transaction in
                try transaction.insert(Fixtures.post("p2"))
                throw StoreError(.invalidQuery, "rolled back")
            }
        }
        try await old.write(caller: "master") { try $0.insert(Fixtures.post("p3", title: "third")) }
        let entries = try await old.journal(after: 0, limit: 100)
        // The class's creation (a schema entry), then the two kept inserts.
        #expect(entries.map(\.objectId) == [nil, "p1", "p3"])
        #expect(entries.map(\.seq) == [1, 2, 3])
        await old.close()

        let store = try await database.open()
        #expect(try await store.appliedMigrations() == SQLiteMigration.builtin.map(\.name))
        #expect(try await store.journal(after: 0, limit: 100) == entries)
        _ = try await store.write(caller: nil) { try $0.delete(className: "Post", objectId: "p1") }
        let next = try await store.journal(after: 3, limit: 100)
        #expect(next.map(\.seq) == [4])
        #expect(next.first?.op == .delete)
        #expect(try await store.read { try $0.lastJournalSeq() } == 4)
        await store.close()
    }

    @Test func failingMigrationLeavesNothingRecorded() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let broken = SQLiteMigration(name: "9999-broken", sql: "CREATE TABLE \"__ok\" (x); THIS IS NOT SQL")
        await #expect(throws: StoreError.self) {
            try await database.open(migrations: SQLiteMigration.builtin + [broken])
        }
        let store = try await database.open()
        #expect(try await store.appliedMigrations() == SQLiteMigration.builtin.map(\.name))
        await store.close()
    }
}
