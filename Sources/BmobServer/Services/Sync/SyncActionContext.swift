public import BmobWire

/// What a sync action sees: its caller, the app's data as that caller sees it (``CloudData``, each call its own
/// operation, triggers included), and the server's queries and mutations, run as the same caller.
public struct SyncActionContext: Sendable {
    /// The signed-in user the action runs for; `nil` for a client without a valid token.
    public let userId: String?
    /// The app's data as the caller may see it; ``CloudData/asMaster`` for the master key's view.
    public let data: CloudData
    /// The action's name, for its log lines.
    public let name: String
    package let logger: Logger
    let invoke: @Sendable (SyncFunctionKind, String, [String: JSONValue]) async throws -> JSONValue

    /// Writes `message` to the server's log, with the action's name.
    public func log(_ message: String) {
        logger.info("sync action \(name): \(message)")
    }

    /// Runs the query `name` once, as the caller, and answers its result.
    ///
    /// - Throws: ``SyncFunctionError`` when it fails.
    public func runQuery(_ name: String, _ args: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await invoke(.query, name, args)
    }

    /// Runs the mutation `name`, as the caller, and answers its result once it has committed.
    ///
    /// - Throws: ``SyncFunctionError`` when it fails.
    public func runMutation(_ name: String, _ args: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await invoke(.mutation, name, args)
    }
}
