import BmobIO

extension StoreFactory {
    /// Opens each app's ``SQLiteStore`` at `data.sqlite` in the app's folder, with a reader per core (2 to 4).
    static func sqlite(
        synchronous: SQLiteStore.SynchronousMode,
        workLimits: StoreWorkLimits,
        clock: @escaping @Sendable () -> Int64
    ) -> StoreFactory {
        StoreFactory { options in
            try await SQLiteStore.open(
                SQLiteStore.Configuration(
                    path: options.folder + "/data.sqlite",
                    readerCount: min(4, max(2, EventLoopGroup.coreCount)),
                    synchronous: synchronous,
                    clock: clock,
                    workLimits: workLimits,
                    maximumDocumentBytes: options.maximumDocumentBytes))
        }
    }
}
