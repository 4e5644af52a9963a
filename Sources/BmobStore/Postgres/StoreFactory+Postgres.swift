import BmobIO

extension StoreFactory {
    /// Opens each app's ``PostgresStore`` in its own schema of the database at `url`, with a reader per core
    /// (2 to 4); the journal listeners connect to `listenURL` when given.
    static func postgres(
        url: String, listenURL: String?, workLimits: StoreWorkLimits, clock: @escaping @Sendable () -> Int64
    ) -> StoreFactory {
        StoreFactory { options in
            try await PostgresStore.open(
                PostgresStore.Configuration(
                    url: url, applicationId: options.applicationId,
                    readerCount: min(4, max(2, EventLoopGroup.coreCount)), clock: clock, workLimits: workLimits,
                    maximumDocumentBytes: options.maximumDocumentBytes, listenURL: listenURL))
        }
    }
}
