/// One change a `ModifyQuerySet` makes to a socket's live queries (`sync.md` §1.3).
package enum SyncQueryModification: Sendable, Hashable {
    /// Starts the live query `queryId`: `path` with `arguments`; `journal` is an opaque pagination pin, passed back.
    case add(queryId: Int64, path: SyncFunctionPath, arguments: [String: JSONValue], journal: String?)
    /// Stops the live query `queryId`.
    case remove(queryId: Int64)

    /// The query it concerns.
    package var queryId: Int64 {
        switch self {
        case .add(let queryId, _, _, _), .remove(let queryId): queryId
        }
    }

    /// `{"type":"Add","queryId","udfPath","args":[{…}],"journal"?}` or `{"type":"Remove","queryId"}`.
    package var json: JSONValue {
        switch self {
        case .add(let queryId, let path, let arguments, let journal):
            var members: [String: JSONValue] = [
                "type": "Add", "queryId": .int(queryId), "udfPath": .string(path.rawValue), "args": [.object(arguments)],
            ]
            if let journal { members["journal"] = .string(journal) }
            return .object(members)
        case .remove(let queryId):
            return ["type": "Remove", "queryId": .int(queryId)]
        }
    }

    /// Reads ``json``.
    ///
    /// - Throws: ``SyncProtocolError``.
    package init(json: JSONValue) throws(SyncProtocolError) {
        guard json.objectValue != nil else { throw SyncProtocolError(.invalidMember, "a query modification is an object") }
        let queryId = try SyncMembers.count("queryId", in: json)
        switch json["type"]?.stringValue {
        case "Add":
            self = .add(
                queryId: queryId, path: try SyncMembers.path("udfPath", in: json),
                arguments: try SyncMembers.arguments("args", in: json),
                journal: try SyncMembers.optionalString("journal", in: json))
        case "Remove":
            self = .remove(queryId: queryId)
        default:
            throw SyncProtocolError(.invalidMember, "a query modification's type is Add or Remove")
        }
    }
}
