/// One live query's change in a `Transition` (`sync.md` §1.4).
package enum SyncQueryUpdate: Sendable, Hashable {
    /// `QueryUpdated`: the query's new result.
    case updated(queryId: Int64, value: JSONValue, logLines: [String], journal: String?)
    /// `QueryFailed`: the query threw; `errorData` is an application error's payload.
    case failed(queryId: Int64, errorMessage: String, errorData: JSONValue?, logLines: [String], journal: String?)
    /// `QueryRemoved`: the server dropped the query.
    case removed(queryId: Int64)

    /// The query it concerns.
    package var queryId: Int64 {
        switch self {
        case .updated(let queryId, _, _, _), .failed(let queryId, _, _, _, _), .removed(let queryId): queryId
        }
    }

    /// The modification as JSON.
    package var json: JSONValue {
        switch self {
        case .updated(let queryId, let value, let logLines, let journal):
            return [
                "type": "QueryUpdated", "queryId": .int(queryId), "value": value,
                "logLines": .array(logLines.map(JSONValue.string)), "journal": journal.map(JSONValue.string) ?? .null,
            ]
        case .failed(let queryId, let errorMessage, let errorData, let logLines, let journal):
            var members: [String: JSONValue] = [
                "type": "QueryFailed", "queryId": .int(queryId), "errorMessage": .string(errorMessage),
                "logLines": .array(logLines.map(JSONValue.string)), "journal": journal.map(JSONValue.string) ?? .null,
            ]
            if let errorData { members["errorData"] = errorData }
            return .object(members)
        case .removed(let queryId):
            return ["type": "QueryRemoved", "queryId": .int(queryId)]
        }
    }

    /// Reads ``json``.
    ///
    /// - Throws: ``SyncProtocolError``.
    package init(json: JSONValue, limits: SyncLimits) throws(SyncProtocolError) {
        guard json.objectValue != nil else { throw SyncProtocolError(.invalidMember, "a query modification is an object") }
        let queryId = try SyncMembers.count("queryId", in: json)
        switch json["type"]?.stringValue {
        case "QueryUpdated":
            self = .updated(
                queryId: queryId, value: (json["value"] ?? .null).wholeNumbersAsIntegers,
                logLines: try SyncMembers.logLines(in: json, limit: limits.maximumItems),
                journal: try SyncMembers.optionalString("journal", in: json))
        case "QueryFailed":
            let errorData = json["errorData"]
            self = .failed(
                queryId: queryId, errorMessage: try SyncMembers.string("errorMessage", in: json),
                errorData: errorData?.isNull == true ? nil : errorData?.wholeNumbersAsIntegers,
                logLines: try SyncMembers.logLines(in: json, limit: limits.maximumItems),
                journal: try SyncMembers.optionalString("journal", in: json))
        case "QueryRemoved":
            self = .removed(queryId: queryId)
        default:
            throw SyncProtocolError(.invalidMember, "a query modification's type is QueryUpdated, QueryFailed or QueryRemoved")
        }
    }
}
