import BmobStore
import BmobTesting
import BmobWire
import Testing

/// The SQLite store's named, append-only migrations.
@Suite("SQLiteStore migrations", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
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

        // A database from before the rebuild, its journal written as that version wrote it: the class's
        // creation and two inserts (numbers 1 to 3). Written by a migration of the test's own, since this
        // version's writes also fill columns added after the rebuild.
        let oldRows = SQLiteMigration(
            name: "test-0001-old-journal-rows",
            sql: """
                INSERT INTO "__journal" (className, objectId, op, "before", "after", caller, time)
                    VALUES ('Post', NULL, 'schema', NULL, NULL, 'rest', 1);
                INSERT INTO "__journal" (className, objectId, op, "before", "after", caller, time)
                    VALUES ('Post', 'p1', 'create', NULL, '{"objectId":"p1"}', 'rest', 2);
                INSERT INTO "__journal" (className, objectId, op, "before", "after", caller, time)
                    VALUES ('Post', 'p3', 'create', NULL, '{"objectId":"p3"}', 'master', 3);
                """)
        let old = try await database.open(migrations: beforeRebuild + [oldRows])
        await old.close()

        let store = try await database.open(migrations: SQLiteMigration.builtin + [oldRows])
        #expect(try await store.appliedMigrations().sorted() == (SQLiteMigration.builtin.map(\.name) + [oldRows.name]).sorted())
        let entries = try await store.journal(after: 0, limit: 100)
        #expect(entries.map(\.objectId) == [nil, "p1", "p3"])
        #expect(entries.map(\.seq) == [1, 2, 3])
        #expect(entries.map(\.caller) == ["rest", "rest", "master"])
        #expect(entries.allSatisfy { $0.door == nil })
        // Numbering goes on after the kept rows: the class's creation, then the insert.
        _ = try await store.write(caller: JournalAuthor(caller: nil, door: "rest")) { try $0.insert(Fixtures.post("p4")) }
        let next = try await store.journal(after: 3, limit: 100)
        #expect(next.map(\.seq) == [4, 5])
        #expect(next.map(\.op) == [.schema, .create])
        #expect(next.map(\.door) == ["rest", "rest"])
        #expect(try await store.read { try $0.lastJournalSeq() } == 5)
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
