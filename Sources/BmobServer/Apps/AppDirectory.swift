package import BmobIO
import Foundation

/// The apps a running server answers for, by Application ID.
///
/// Lookups are a dictionary read under a lock. An unknown id triggers a re-read of `apps.json` (on the
/// blocking pool, at most once a second), so apps created with `bmob apps create` while the server runs
/// are picked up without a restart.
package final class AppDirectory: Sendable {
    private let registry: AppRegistry
    private let pool: ThreadPool
    private let lock = Lock()
    // Invariant: `apps`, `lastReload` and `registryDate` are read and written only under `lock`.
    private nonisolated(unsafe) var apps: [String: App] = [:]
    private nonisolated(unsafe) var lastReload = ContinuousClock.now
    private nonisolated(unsafe) var registryDate: Date?

    /// Loads the registry of `dataDirectory`.
    package init(registry: AppRegistry, pool: ThreadPool) throws {
        self.registry = registry
        self.pool = pool
        let loaded = try registry.load()
        apps = Dictionary(loaded.map { ($0.applicationId, $0) }, uniquingKeysWith: { first, _ in first })
        registryDate = registry.modificationDate()
    }

    /// Every app, sorted by creation time.
    package var all: [App] {
        lock.withLock { apps.values.sorted { ($0.createdAt, $0.applicationId) < ($1.createdAt, $1.applicationId) } }
    }

    /// The app with this id, re-reading `apps.json` once if it is unknown and the file changed.
    package func app(id: String) async -> App? {
        let (found, mayReload): (App?, Bool) = lock.withLock {
            if let app = apps[id] { return (app, false) }
            return (nil, ContinuousClock.now - lastReload >= .seconds(1))
        }
        if let found { return found }
        guard mayReload else { return nil }
        lock.withLock { lastReload = .now }
        let registry = self.registry
        let reloaded = try? await pool.run { _ -> ([App], Date?)? in
            (try registry.load(), registry.modificationDate())
        }
        guard let (list, date) = reloaded ?? nil else { return nil }
        return lock.withLock {
            if date != registryDate {
                registryDate = date
                for app in list where apps[app.applicationId] == nil {
                    apps[app.applicationId] = app
                }
            }
            return apps[id]
        }
    }
}
