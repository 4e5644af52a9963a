package import BmobStore

/// A hosted app with its open database.
package final class AppRuntime: Sendable {
    package let app: App
    package let store: any Store
    /// Sessions resolved recently (``SessionCache``).
    package let sessions = SessionCache()

    package init(app: App, store: any Store) {
        self.app = app
        self.store = store
        // Other nodes' logouts, password changes and role writes (PostgreSQL only).
        store.observeSessionChanges { [sessions] in sessions.forgetAll() }
    }
}
