public import BmobWire

/// An error a sync function throws on purpose: its message, and optional data the client receives beside it
/// (`errorData`), as a failed `MutationResponse`, `ActionResponse` or `QueryFailed`. Any other error a function
/// throws reaches the client as "<name> failed", with the cause only in the server's log.
public struct SyncFunctionError: Error, Sendable, Equatable {
    /// What the client is told.
    public var message: String
    /// Data the client receives with it.
    public var data: JSONValue?

    /// An error with `message` and, if given, `data`.
    public init(_ message: String, data: JSONValue? = nil) {
        self.message = message
        self.data = data
    }
}
