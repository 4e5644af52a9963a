import Synchronization

/// The page caches of every SQLite connection of the process, in bytes: they grow as databases grow, up to each
/// connection's `cacheSizeKibibytes`, so this is where a growing resident set is expected to show first.
///
/// SQLite's own memory statistics stay off (they take a global mutex on every allocation); instead each
/// connection reports its cache's size (`SQLITE_DBSTATUS_CACHE_USED`) on its own thread after each transaction,
/// and takes it back when it closes.
package enum SQLiteMemory {
    private static let pageCaches = Atomic<Int>(0)

    /// The bytes all open connections' page caches held at the end of their last transaction.
    package static var pageCacheBytes: Int {
        pageCaches.load(ordering: .relaxed)
    }

    /// Adds a connection's change in cache size.
    static func adjustPageCaches(by delta: Int) {
        pageCaches.add(delta, ordering: .relaxed)
    }
}
