/// Which database engine holds the apps' data, with that engine's settings: what the server is configured with.
/// ``StoreFactory/init(_:workLimits:clock:)`` turns it into the factory that opens each app's ``Store``, so nothing
/// above `BmobStore` names an engine type.
///
/// SQLite (embedded, one node) is the default; PostgreSQL serves several server nodes.
package enum StorageConfiguration: Sendable, Hashable {
    /// One SQLite file per app, `data.sqlite` in the app's folder, with COMMITs as durable as `synchronous` says.
    case sqlite(synchronous: SQLiteStore.SynchronousMode = .normal)
    /// One PostgreSQL database for every app, a schema per app; `url` is a `postgres://` URL or a libpq
    /// connection string.
    case postgres(url: String)

    /// Sets SQLite's durability (the `sqliteSynchronous` setting); other engines keep their own settings.
    package mutating func setSQLiteSynchronous(_ synchronous: SQLiteStore.SynchronousMode) {
        switch self {
        case .sqlite: self = .sqlite(synchronous: synchronous)
        case .postgres: break
        }
    }
}
