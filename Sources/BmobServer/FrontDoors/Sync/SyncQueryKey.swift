import BmobWire

/// A live query as the server runs it: a function, its arguments (canonical JSON text) and the identity it runs
/// as. Every socket subscribed to the same key shares one run per commit.
struct SyncQueryKey: Sendable, Hashable {
    let path: SyncFunctionPath
    /// The arguments' JSON text with sorted keys.
    let argumentsText: String
    let identity: SyncIdentity

    init(path: SyncFunctionPath, arguments: [String: JSONValue], identity: SyncIdentity) {
        self.path = path
        self.argumentsText = JSONValue.object(arguments).jsonString
        self.identity = identity
    }
}
