/// What a sync mutation sees: its caller and the app's data as that caller may read and write it, in one
/// transaction.
public struct SyncMutationContext {
    /// The signed-in user the mutation runs for; `nil` for a client without a valid token.
    public let userId: String?
    /// The app's objects: reads and writes that commit together when the mutation returns.
    public let db: SyncWriter
}
