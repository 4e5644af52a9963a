/// Where a client's view of one sync socket stands: the query-set version, the identity version and the
/// timestamp of the results (`sync.md` §1.4). Transitions chain: each starts at the version the last one ended at.
///
/// `ts` is a plain JSON integer here (the commit's journal sequence number), not Convex's base64 u64 string.
package struct SyncStateVersion: Sendable, Hashable {
    /// The version of the client's query set, raised by each `ModifyQuerySet`.
    package var querySet: Int64
    /// The version of the client's identity, raised by each `Authenticate`.
    package var identity: Int64
    /// The commit the results are as of.
    package var ts: Int64

    /// A version.
    package init(querySet: Int64 = 0, identity: Int64 = 0, ts: Int64 = 0) {
        self.querySet = querySet
        self.identity = identity
        self.ts = ts
    }

    /// A fresh socket's version: all zero.
    package static let initial = SyncStateVersion()

    /// `{"querySet","identity","ts"}`.
    package var json: JSONValue {
        ["querySet": .int(querySet), "identity": .int(identity), "ts": .int(ts)]
    }

    /// Reads ``json``.
    ///
    /// - Throws: ``SyncProtocolError`` for a missing member or a negative number.
    package init(json: JSONValue?) throws(SyncProtocolError) {
        guard let json, json.objectValue != nil else {
            throw SyncProtocolError(.invalidMember, "a state version is an object {querySet, identity, ts}")
        }
        querySet = try SyncMembers.count("querySet", in: json)
        identity = try SyncMembers.count("identity", in: json)
        ts = try SyncMembers.count("ts", in: json)
    }
}
