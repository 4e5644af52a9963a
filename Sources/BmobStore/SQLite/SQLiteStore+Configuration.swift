extension SQLiteStore {
    /// How to open an ``SQLiteStore``.
    package struct Configuration: Sendable {
        /// The database file; created if missing. Its `-wal` and `-shm` files sit beside it.
        package var path: String
        /// Reader connections, each on its own thread.
        package var readerCount: Int
        /// Durability of a COMMIT; see ``SynchronousMode``.
        package var synchronous: SynchronousMode
        /// How long a connection waits for a lock held by another process before failing with
        /// ``StoreError/Code/busy``, in milliseconds.
        package var busyTimeoutMilliseconds: Int
        /// Most writes run in one transaction when many are queued.
        package var maximumGroupSize: Int
        /// Page cache of each connection, in KiB (`PRAGMA cache_size`). Updates land on index pages all over
        /// a table; a cache that holds the indexes saves a read from the file per page.
        package var cacheSizeKibibytes: Int
        /// The time recorded in journal rows and `__migrations`, in milliseconds since 1970 UTC.
        package var clock: @Sendable () -> Int64
        /// How much work one read and one `$regex` evaluation may do; see ``StoreWorkLimits``.
        package var workLimits: StoreWorkLimits
        /// The largest object a write may store, in bytes of its fields' JSON (the `data` column); a larger
        /// insert or update fails with ``StoreError/Code/tooLarge``. Checked on the text the write encodes
        /// anyway, so the limit costs nothing.
        package var maximumDocumentBytes: Int

        /// A configuration with defaults: 4 readers, ``SynchronousMode/normal``, a 5 s busy timeout,
        /// groups of up to 256 writes, a 16 MiB page cache per connection, the system clock, and the default
        /// ``StoreWorkLimits``.
        package init(
            path: String,
            readerCount: Int = 4,
            synchronous: SynchronousMode = .normal,
            busyTimeoutMilliseconds: Int = 5000,
            maximumGroupSize: Int = 256,
            cacheSizeKibibytes: Int = 16384,
            clock: @escaping @Sendable () -> Int64 = Configuration.systemClock,
            workLimits: StoreWorkLimits = StoreWorkLimits(),
            maximumDocumentBytes: Int = .max
        ) {
            self.maximumDocumentBytes = maximumDocumentBytes
            self.path = path
            self.readerCount = readerCount
            self.synchronous = synchronous
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.maximumGroupSize = maximumGroupSize
            self.cacheSizeKibibytes = cacheSizeKibibytes
            self.clock = clock
            self.workLimits = workLimits
        }

        /// Wall-clock time in milliseconds since 1970 UTC.
        @Sendable
        package static func systemClock() -> Int64 {
            StoreFactory.systemClock()
        }
    }
}
