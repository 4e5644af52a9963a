extension PostgresStore {
    /// How a ``PostgresStore`` connects and behaves.
    package struct Configuration: Sendable {
        /// The server: a `postgres://` URL or a libpq connection string.
        package var url: String
        /// The app's schema.
        package var schema: PostgresSchemaName
        /// Reader threads, one connection each.
        package var readerCount: Int
        /// Most writes that share one transaction.
        package var maximumGroupSize: Int
        /// The time recorded in journal entries, in milliseconds since 1970 UTC.
        package var clock: @Sendable () -> Int64
        /// How much work one query may do; on PostgreSQL, ``StoreWorkLimits/queryWork`` becomes a statement
        /// timeout (``statementTimeoutMilliseconds``).
        package var workLimits: StoreWorkLimits
        /// Largest document a write may store, in bytes of its fields' JSON.
        package var maximumDocumentBytes: Int
        /// How often the journal listener looks at the journal's head when no notification woke it, in
        /// milliseconds: notifications are only a wake-up, and are lost while a connection is down.
        package var listenerPollMilliseconds: Int
        /// Where the journal listener connects (`LISTEN` needs a session: past a transaction-mode pooler, straight
        /// to PostgreSQL); `nil` uses ``url``.
        package var listenURL: String?

        /// Makes a configuration.
        package init(
            url: String,
            applicationId: String,
            readerCount: Int = 4,
            maximumGroupSize: Int = 256,
            clock: @escaping @Sendable () -> Int64 = StoreFactory.systemClock,
            workLimits: StoreWorkLimits = StoreWorkLimits(),
            maximumDocumentBytes: Int = .max,
            listenerPollMilliseconds: Int = 500,
            listenURL: String? = nil
        ) {
            self.url = url
            self.schema = PostgresSchemaName(applicationId: applicationId)
            self.readerCount = readerCount
            self.maximumGroupSize = maximumGroupSize
            self.clock = clock
            self.workLimits = workLimits
            self.maximumDocumentBytes = maximumDocumentBytes
            self.listenerPollMilliseconds = listenerPollMilliseconds
            self.listenURL = listenURL
        }

        /// Whether ``url`` reaches PostgreSQL through a transaction-mode pooler, which hands each transaction any
        /// server connection and keeps no session settings: said by a ``listenURL`` other than ``url`` (the
        /// listener needs a session, so it goes straight to PostgreSQL when the store does not). Readers then run
        /// every read as a transaction that sets what they need.
        var behindTransactionPooler: Bool {
            listenURL.map { $0 != url } ?? false
        }

        /// A reader statement's timeout: ``StoreWorkLimits/queryWork`` at 200,000 steps a millisecond (the
        /// default billion is 5 seconds), at least 1 ms and at most 10 minutes.
        var statementTimeoutMilliseconds: Int {
            min(600_000, max(1, workLimits.queryWork / 200_000))
        }
    }
}
