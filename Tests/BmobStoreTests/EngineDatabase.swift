import BmobStore
import BmobTesting
import Foundation

/// One test's database on a ``StoreEngine``, opened through the same ``StoreFactory`` the server uses; it can be
/// opened again to test what survives a restart.
struct EngineDatabase {
    let engine: StoreEngine
    /// The app folder the store's files live in.
    let directory: URL
    /// The app's Application ID: its schema's name on PostgreSQL, unique per test.
    let applicationId: String

    /// Opens a store on this database, with `clock` as the journal's clock.
    func open(clock: TestClock = TestClock()) async throws -> any Store {
        try await StoreFactory(engine.configuration(), clock: { clock.now })
            .open(AppStoreOptions(applicationId: applicationId, folder: directory.path))
    }

    /// Deletes the database: the folder, and on PostgreSQL the app's schema.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
        if engine == .postgres { TestPostgres.dropSchema(of: applicationId) }
    }
}
