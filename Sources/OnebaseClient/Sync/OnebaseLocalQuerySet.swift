package import BmobWire

/// The client's live queries (`sync.md` §1.3): one query id per distinct token, reference-counted, and the query-set
/// version each `ModifyQuerySet` moves forward by one.
package struct OnebaseLocalQuerySet: Sendable {
    private struct Entry: Sendable {
        let queryId: Int64
        var count: Int
    }

    private var entries: [OnebaseQueryToken: Entry] = [:]
    private var tokens: [Int64: OnebaseQueryToken] = [:]
    private var nextQueryId: Int64 = 0
    /// The query-set version of the current socket: the `newVersion` of the last `ModifyQuerySet` sent on it.
    package private(set) var version: Int64 = 0

    /// An empty set.
    package init() {}

    /// Every live query's token.
    package var allTokens: [OnebaseQueryToken] { Array(entries.keys) }

    /// The token of `queryId`, if it is live.
    package func token(of queryId: Int64) -> OnebaseQueryToken? { tokens[queryId] }

    /// The query id of `token`, if it is live.
    package func queryId(of token: OnebaseQueryToken) -> Int64? { entries[token]?.queryId }

    /// Adds a user of `token`.
    ///
    /// - Returns: the `Add` to send when this is its first user.
    package mutating func add(_ token: OnebaseQueryToken) -> SyncQueryModification? {
        if var entry = entries[token] {
            entry.count += 1
            entries[token] = entry
            return nil
        }
        let queryId = nextQueryId
        nextQueryId += 1
        entries[token] = Entry(queryId: queryId, count: 1)
        tokens[queryId] = token
        return .add(queryId: queryId, path: token.path, arguments: token.arguments, journal: nil)
    }

    /// Removes a user of `token`.
    ///
    /// - Returns: the `Remove` to send when it was the last user.
    package mutating func remove(_ token: OnebaseQueryToken) -> SyncQueryModification? {
        guard var entry = entries[token] else { return nil }
        entry.count -= 1
        guard entry.count == 0 else {
            entries[token] = entry
            return nil
        }
        entries[token] = nil
        tokens[entry.queryId] = nil
        return .remove(queryId: entry.queryId)
    }

    /// The `ModifyQuerySet` carrying `modifications`, moving the version forward.
    package mutating func message(_ modifications: [SyncQueryModification]) -> SyncClientMessage {
        defer { version += 1 }
        return .modifyQuerySet(baseVersion: version, newVersion: version + 1, modifications: modifications)
    }

    /// A fresh socket starts from version 0: the `ModifyQuerySet` that adds every live query again, with its old
    /// id, or `nil` when there is none (`sync.md` §1.8).
    package mutating func restart() -> SyncClientMessage? {
        version = 0
        guard !entries.isEmpty else { return nil }
        let adds = entries.sorted { $0.value.queryId < $1.value.queryId }.map { token, entry in
            SyncQueryModification.add(
                queryId: entry.queryId, path: token.path, arguments: token.arguments, journal: nil)
        }
        return message(adds)
    }
}
