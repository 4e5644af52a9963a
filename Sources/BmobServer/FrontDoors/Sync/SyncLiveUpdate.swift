import BmobWire

/// What the live-query engine hands a socket after a run: new results of some of its keys, each with the key's
/// result version (a socket forwards a result only when its version is newer than the one it sent), and the
/// journal position the results reflect.
struct SyncLiveUpdate: Sendable {
    /// One key's result.
    struct KeyResult: Sendable {
        let key: SyncQueryKey
        let version: Int64
        let outcome: Result<JSONValue, SyncFunctionError>
    }

    /// Journal position: every commit up to it is reflected in the socket's results once this is applied.
    let ts: Int64
    let results: [KeyResult]
}
