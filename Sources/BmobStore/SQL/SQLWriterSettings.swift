/// What an ``SQLWriter`` needs from its store's configuration.
struct SQLWriterSettings: Sendable {
    /// Most writes that share one transaction.
    var maximumGroupSize: Int
    /// Largest document a write may store, in bytes.
    var maximumDocumentBytes: Int
    /// The time recorded in journal entries, in milliseconds since 1970 UTC.
    var clock: @Sendable () -> Int64
}
