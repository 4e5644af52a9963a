/// What a sync query sees: its caller and the app's data as that caller may read it.
public struct SyncQueryContext {
    /// The signed-in user the query runs for; `nil` for a client without a valid token.
    public let userId: String?
    /// The app's objects, read in one snapshot; what is read decides when the query runs again.
    public let db: SyncReader
}
