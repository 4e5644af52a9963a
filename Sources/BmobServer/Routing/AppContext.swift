package import BmobStore

/// Who is calling, once the Bmob app headers have been checked. Routes registered with
/// ``BmobRouter/app(_:_:bodyLimit:_:)`` cannot run without one.
package struct AppContext: Sendable {
    package var app: App
    /// The app's database.
    package var store: any Store
    /// The caller presented the Master Key: permissions do not apply.
    package var isMaster: Bool
    /// The `X-Bmob-Session-Token` header, remembered for user operations.
    package var sessionToken: String?

    /// Who the journal records as the author of writes.
    package var callerDescription: String {
        isMaster ? "master" : "rest"
    }

    /// How objects are rendered for this app.
    package var renderer: ObjectRenderer {
        ObjectRenderer(offsetSeconds: app.dateOffsetSeconds)
    }

    package init(runtime: AppRuntime, isMaster: Bool, sessionToken: String?) {
        self.app = runtime.app
        self.store = runtime.store
        self.isMaster = isMaster
        self.sessionToken = sessionToken
    }
}
