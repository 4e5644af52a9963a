import BmobStore
import BmobTesting
import Foundation
import Testing

/// A database engine the store suite runs on. Suites over `any Store` take it as their test argument
/// (`@Test(arguments: StoreEngine.allCases)`): SQLite in `make test`'s first pass, PostgreSQL in its second
/// (`BMOB_TEST_ENGINE=postgres`), so that each pass loads the machine with one engine.
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``SQLiteStore``: a file in a fresh temporary folder.
    case sqlite
    /// ``PostgresStore``: a fresh schema in the test server's database (``TestPostgres``).
    case postgres

    var testDescription: String { rawValue }

    /// The engine of this pass.
    static var allCases: [StoreEngine] { TestPostgres.isSelected ? [.postgres] : [.sqlite] }

    /// The storage configuration the server would be given for this engine.
    func configuration() throws -> StorageConfiguration {
        switch self {
        case .sqlite: .sqlite()
        case .postgres: .postgres(url: try TestPostgres.url())
        }
    }

    /// A fresh, empty database of this engine; ``EngineDatabase/remove()`` deletes it.
    func makeDatabase() throws -> EngineDatabase {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bmob-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return EngineDatabase(
            engine: self, directory: directory,
            applicationId: "storetests_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())")
    }

    /// Runs `body` with a store on a fresh database, closes the store and removes the database.
    func withStore(
        clock: TestClock = TestClock(),
        _ body: (any Store, EngineDatabase) async throws -> Void
    ) async throws {
        let database = try makeDatabase()
        defer { database.remove() }
        let store = try await database.open(clock: clock)
        do {
            try await body(store, database)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
