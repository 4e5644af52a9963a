package import BmobIO
package import BmobStore
import Foundation

/// The apps a running server answers for, by Application ID, each with its open database.
///
/// Lookups are a dictionary read under a lock. An unknown id triggers a re-read of the apps (`apps.json`, or the
/// database's app table on PostgreSQL; on the blocking pool, at most once a second), so apps created with
/// `bmob apps create` while the server runs, on any node, are picked up without a restart. Lookups also have the
/// registry checked in the background, at most once a second, and changed settings (`bmob apps webhooks`, …) handed
/// to the running apps: a server that gets no requests reads nothing. ``reload()`` (`SIGHUP`) does all of it at once
/// and also stops serving apps removed from the registry.
package final class AppDirectory: Sendable {
    private let registry: AppRegistry
    private let pool: ThreadPool
    /// Opens each app's store, on whichever engine the server was configured with.
    private let stores: StoreFactory
    private let lock = Lock()
    // Invariant: `runtimes`, `retired`, `lastReload`, `registryDate`, `settingsDate`, `settingsCheckedAt`,
    // `settingsCheckRunning` and `closed` are read and written only under `lock`.
    private nonisolated(unsafe) var runtimes: [String: AppRuntime] = [:]
    /// Apps a reload removed: no longer found, their databases still open for the requests and realtime connections
    /// that hold them, closed with the others; an app added back takes its runtime again.
    private nonisolated(unsafe) var retired: [String: AppRuntime] = [:]
    private nonisolated(unsafe) var lastReload = ContinuousClock.now
    private nonisolated(unsafe) var registryDate: String?
    /// The registry's marker when the running apps last took their settings.
    private nonisolated(unsafe) var settingsDate: String?
    private nonisolated(unsafe) var settingsCheckedAt = ContinuousClock.now
    private nonisolated(unsafe) var settingsCheckRunning = false
    private nonisolated(unsafe) var closed = false

    private init(registry: AppRegistry, pool: ThreadPool, stores: StoreFactory) {
        self.registry = registry
        self.pool = pool
        self.stores = stores
    }

    /// Loads the registry of a data folder and opens every app's database through `stores` (which carries the
    /// engine, its settings and the query work limits).
    package static func open(
        registry: AppRegistry, pool: ThreadPool, stores: StoreFactory
    ) async throws -> AppDirectory {
        let directory = AppDirectory(registry: registry, pool: pool, stores: stores)
        let date = registry.changeMarker()
        let apps = try registry.load()
        do {
            for app in apps {
                let runtime = try await directory.openRuntime(app)
                directory.lock.withLock { directory.runtimes[app.applicationId] = runtime }
            }
        } catch {
            await directory.close()
            throw error
        }
        directory.lock.withLock {
            directory.registryDate = date
            directory.settingsDate = date
        }
        return directory
    }

    /// Has the registry read in the background when the last check is a second old; never waits.
    private func checkSettingsSoon() {
        let due = lock.withLock {
            guard !closed, !settingsCheckRunning, ContinuousClock.now - settingsCheckedAt >= .seconds(1) else {
                return false
            }
            settingsCheckRunning = true
            return true
        }
        guard due else { return }
        Task.detached { [self] in
            await refreshSettings()
            lock.withLock {
                settingsCheckedAt = .now
                settingsCheckRunning = false
            }
        }
    }

    /// When the registry changed, the running apps take their new settings (new apps open on their first request,
    /// as before).
    private func refreshSettings() async {
        guard let (list, date) = await readRegistry() else { return }
        lock.withLock {
            guard date != settingsDate else { return }
            settingsDate = date
            for app in list { runtimes[app.applicationId]?.update(app) }
        }
    }

    /// Every app and the registry's change marker (read together, ``AppRegistry/loadWithChangeMarker()``), on the
    /// blocking pool; `nil` when the registry cannot be read.
    private func readRegistry() async -> ([App], String?)? {
        let registry = self.registry
        return try? await pool.run({ _ in try registry.loadWithChangeMarker() })
    }

    private func openRuntime(_ app: App) async throws -> AppRuntime {
        let folder = registry.appDirectory(app.applicationId)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try await stores.open(
            AppStoreOptions(
                applicationId: app.applicationId, folder: folder, maximumDocumentBytes: app.security.maxObjectBytes))
        return AppRuntime(app: app, store: store)
    }

    /// Every app, sorted by creation time.
    package var all: [App] {
        lock.withLock { runtimes.values.map(\.app) }
            .sorted { ($0.createdAt, $0.applicationId) < ($1.createdAt, $1.applicationId) }
    }

    /// Every app whose database is open, by id; never waits.
    package var openRuntimes: [AppRuntime] {
        lock.withLock { runtimes.values.sorted { $0.app.applicationId < $1.app.applicationId } }
    }

    /// The app with this id when its database is already open; never waits (for callers on an event loop).
    package func openedRuntime(id: String) -> AppRuntime? {
        checkSettingsSoon()
        return lock.withLock { runtimes[id] }
    }

    /// The open app whose channel credentials match `matches` (a channel key on `/app/{key}`, an app id on the
    /// channels HTTP API); never waits.
    package func openedRuntime(channels matches: (AppChannels) -> Bool) -> AppRuntime? {
        checkSettingsSoon()
        return lock.withLock { runtimes.values.first { $0.app.channels.map(matches) ?? false } }
    }

    /// The app with this id, re-reading `apps.json` once if it is unknown and the file changed.
    package func runtime(id: String) async -> AppRuntime? {
        checkSettingsSoon()
        let (found, mayReload): (AppRuntime?, Bool) = lock.withLock {
            if let runtime = runtimes[id] { return (runtime, false) }
            let due = !closed && ContinuousClock.now - lastReload >= .seconds(1)
            if due { lastReload = .now }
            return (nil, due)
        }
        if let found { return found }
        guard mayReload else { return nil }
        guard let (list, date) = await readRegistry(),
            lock.withLock({ date != registryDate })
        else { return nil }
        for app in list where lock.withLock({ runtimes[app.applicationId] == nil }) {
            if lock.withLock({ revive(app) }) { continue }
            guard let runtime = try? await openRuntime(app) else { continue }
            let stale: AppRuntime? = lock.withLock {
                if closed || runtimes[app.applicationId] != nil { return runtime }
                runtimes[app.applicationId] = runtime
                return nil
            }
            // Lost a race with another lookup, or the server is closing: this copy is not needed.
            if let stale { await stale.store.close() }
        }
        return lock.withLock {
            registryDate = date
            return runtimes[id]
        }
    }

    /// Re-reads the registry now (`SIGHUP`): new apps are opened and served, changed settings and keys apply to the
    /// requests that start from now on, and apps no longer listed stop being found (requests naming them get the
    /// unknown-app error; their open connections stay, see ``retired``).
    ///
    /// - Throws: ``ConfigurationError`` when the registry cannot be read or is malformed (`apps.json` that is not
    ///   valid JSON, an app without its keys, …); nothing changes then.
    package func reload() async throws -> AppReload {
        let registry = self.registry
        let (list, date) = try await pool.run({ _ in try registry.loadWithChangeMarker() })
        var result = AppReload()
        result.total = list.count
        for app in list {
            enum Found { case unchanged, changed, revived, absent }
            let found: Found = lock.withLock {
                if let runtime = runtimes[app.applicationId] {
                    guard runtime.app != app else { return .unchanged }
                    runtime.update(app)
                    return .changed
                }
                return revive(app) ? .revived : .absent
            }
            switch found {
            case .unchanged: continue
            case .changed: result.changed.append(app.applicationId); continue
            case .revived: result.added.append(app.applicationId); continue
            case .absent: break
            }
            do {
                let runtime = try await openRuntime(app)
                let stale: AppRuntime? = lock.withLock {
                    if closed || runtimes[app.applicationId] != nil { return runtime }
                    runtimes[app.applicationId] = runtime
                    return nil
                }
                // A lookup opened it meanwhile (it counts as added all the same), or the server is closing.
                if let stale { await stale.store.close() }
                result.added.append(app.applicationId)
            } catch {
                result.failed.append((app.applicationId, "\(error)"))
            }
        }
        let listed = Set(list.map(\.applicationId))
        lock.withLock {
            for (id, runtime) in runtimes where !listed.contains(id) {
                runtimes[id] = nil
                retired[id] = runtime
                result.removed.append(id)
            }
            registryDate = date
            settingsDate = date
            settingsCheckedAt = .now
        }
        result.removed.sort()
        return result
    }

    /// Serves a removed app again, with `app`'s settings, when a reload retired it; `false` when it was not retired.
    /// Call under `lock`.
    private func revive(_ app: App) -> Bool {
        guard let runtime = retired.removeValue(forKey: app.applicationId) else { return false }
        runtime.update(app)
        runtimes[app.applicationId] = runtime
        return true
    }

    /// Closes every app's database, removed apps' included. Lookups find nothing afterwards.
    package func close() async {
        let all: [AppRuntime] = lock.withLock {
            closed = true
            defer {
                runtimes = [:]
                retired = [:]
            }
            return Array(runtimes.values) + Array(retired.values)
        }
        for runtime in all {
            await runtime.store.close()
        }
    }
}
