#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens each app's ``Store`` on the engine the server was configured with: what the server is given, so that
/// the code that manages apps never names an engine.
///
/// Make one from a ``StorageConfiguration`` with ``init(_:workLimits:clock:)``, or from any opening function
/// (a test double, say) with ``init(open:)``.
package struct StoreFactory: Sendable {
    private let openStore: @Sendable (AppStoreOptions) async throws -> any Store

    /// A factory that opens stores with `open`.
    package init(open: @escaping @Sendable (AppStoreOptions) async throws -> any Store) {
        self.openStore = open
    }

    /// A factory for the engine `configuration` names.
    ///
    /// - Parameters:
    ///   - configuration: The engine and its settings.
    ///   - workLimits: How much work one query may do, on every app's store.
    ///   - clock: The time recorded in journal entries, in milliseconds since 1970 UTC.
    ///   - listenURL: On PostgreSQL, where the journal listeners connect (by default the database's URL).
    package init(
        _ configuration: StorageConfiguration,
        workLimits: StoreWorkLimits = StoreWorkLimits(),
        clock: @escaping @Sendable () -> Int64 = StoreFactory.systemClock,
        listenURL: String? = nil
    ) {
        switch configuration {
        case .sqlite(let synchronous):
            self = .sqlite(synchronous: synchronous, workLimits: workLimits, clock: clock)
        case .postgres(let url):
            self = .postgres(url: url, listenURL: listenURL, workLimits: workLimits, clock: clock)
        }
    }

    /// Opens (creating if needed) one app's store, bringing its tables up to date.
    ///
    /// - Throws: ``StoreError``: ``StoreError/Code/io`` when the database cannot be opened,
    ///   ``StoreError/Code/incompatible`` when a newer version wrote it.
    package func open(_ options: AppStoreOptions) async throws -> any Store {
        try await openStore(options)
    }

    /// Wall-clock time in milliseconds since 1970 UTC.
    @Sendable
    package static func systemClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
