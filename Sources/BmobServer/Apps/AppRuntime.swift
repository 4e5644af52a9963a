package import BmobStore
import Synchronization

/// A hosted app with its open database.
package final class AppRuntime: Sendable {
    private let settings: Mutex<App>
    package let store: any Store
    /// Sessions resolved recently (``SessionCache``).
    package let sessions = SessionCache()

    package init(app: App, store: any Store) {
        settings = Mutex(app)
        self.store = store
        // Other nodes' logouts, password changes and role writes (PostgreSQL only).
        store.observeSessionChanges { [sessions] in sessions.forgetAll() }
    }

    /// The app's settings as last read from the registry; a request reads them once, when it starts.
    package var app: App {
        settings.withLock { $0 }
    }

    /// Takes the app's settings and keys as the registry now holds them (webhooks, security, time zones, …); the
    /// id never changes.
    package func update(_ app: App) {
        settings.withLock { current in
            guard app.applicationId == current.applicationId else { return }
            current = app
        }
    }
}
