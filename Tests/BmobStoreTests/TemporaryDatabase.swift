import BmobStore
import Foundation

/// A fresh folder per test holding one database file; removed when the test ends.
struct TemporaryDatabase {
    let directory: URL
    /// The database file's path.
    var path: String { directory.appendingPathComponent("app.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bmob-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Opens a store on this file.
    func open(
        readerCount: Int = 4,
        clock: TestClock = TestClock(),
        migrations: [SQLiteMigration] = SQLiteMigration.builtin
    ) async throws -> SQLiteStore {
        try await SQLiteStore.open(
            .init(path: path, readerCount: readerCount, clock: { clock.now }), migrations: migrations)
    }

    /// Runs `body` with a store on a fresh file, closes the store and removes the folder.
    static func withStore(
        readerCount: Int = 4,
        clock: TestClock = TestClock(),
        _ body: (SQLiteStore, TemporaryDatabase) async throws -> Void
    ) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let store = try await database.open(readerCount: readerCount, clock: clock)
        do {
            try await body(store, database)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
