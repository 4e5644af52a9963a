import BmobStore
import Foundation

/// One test's database on a ``StoreEngine``, opened through the same ``StoreFactory`` the server uses; it can be
/// opened again to test what survives a restart.
struct EngineDatabase {
    let engine: StoreEngine
    /// The app folder the store's files live in.
    let directory: URL

    /// Opens a store on this database, with `clock` as the journal's clock.
    func open(clock: TestClock = TestClock()) async throws -> any Store {
        try await StoreFactory(engine.configuration, clock: { clock.now })
            .open(AppStoreOptions(applicationId: "storetests", folder: directory.path))
    }

    /// Deletes the database.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
