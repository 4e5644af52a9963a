import BmobHTTP
import BmobWire

/// REST history, revert, restore and discovery:
/// - `GET /1/history/<Class>/<objectId>` and `GET /1/history/<Class>`: changes, newest first, with `where` on
///   `since`, `until`, `user`, `op` and `limit`/`skip` in the query string;
/// - `GET /1/deleted/<Class>`: deleted objects that have not come back;
/// - `POST /1/history/<Class>/<objectId>/revert` `{"seq": N, "ifUpdatedAt"?: date}`;
/// - `POST /1/deleted/<Class>/<objectId>/restore`;
/// - `GET /1/serverInfo`: no keys needed; with an app's keys, the app's part too.
package enum HistoryRoutes {
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.get, "/1/history/:className/:objectId", runner: runner) { request, _ in
            .history(
                className: request.parameter("className"), objectId: request.parameter("objectId"),
                filter: try filter(request))
        }
        router.operation(.get, "/1/history/:className", runner: runner) { request, _ in
            .history(className: request.parameter("className"), objectId: nil, filter: try filter(request))
        }
        router.operation(.get, "/1/deleted/:className", runner: runner) { request, _ in
            .deletedObjects(className: request.parameter("className"), filter: try filter(request))
        }
        router.operation(.post, "/1/history/:className/:objectId/revert", runner: runner) { request, _ in
            let (seq, ifUpdatedAt) = try revertArguments(try request.jsonObjectBody())
            return .revert(
                className: request.parameter("className"), objectId: request.parameter("objectId"), seq: seq,
                ifUpdatedAt: ifUpdatedAt)
        }
        router.operation(.post, "/1/deleted/:className/:objectId/restore", runner: runner) { request, _ in
            .restore(className: request.parameter("className"), objectId: request.parameter("objectId"))
        }
        router.open(.get, "/1/serverInfo") { request in
            guard request.http.headers["X-Bmob-Application-Id"] != nil else {
                return .json(ServerInfo.publicDocument(server: request.server))
            }
            var context = try await AppAuthenticator.authenticate(request.http, apps: request.server.apps)
            context.trace = request.trace
            let result = try await runner.run(.serverInfo, context: context)
            return RESTResultEncoder.response(result, context: context, server: request.server)
        }
    }

    /// `where` (a JSON object) with `limit` and `skip` from the query string.
    private static func filter(_ request: BmobRequest) throws(BmobAPIError) -> HistoryFilter {
        var members: [String: JSONValue] = [:]
        if let text = request.http.query("where"), !text.trimmingSpaces().isEmpty {
            guard case .object(let condition)? = try? JSONParser.parse(text) else {
                throw BmobAPIError(.invalidQuery, "where must be a JSON object")
            }
            members = condition
        }
        for name in ["limit", "skip"] {
            if let value = request.http.query(name) { members[name] = .string(value) }
        }
        return try HistoryFilter(json: .object(members))
    }

    /// The change to revert to before, and the version the client last saw.
    static func revertArguments(_ body: [String: JSONValue]) throws(BmobAPIError) -> (Int64, Int64?) {
        guard let seq = body["seq"]?.int64Value, seq > 0 else {
            throw BmobAPIError(.missingParameter, "seq, the number of the change to revert to before, is required")
        }
        var ifUpdatedAt: Int64?
        switch body["ifUpdatedAt"] {
        case nil, .null?: break
        case .string(let text)?:
            ifUpdatedAt = BmobDateFormat.parse(text)
        case .object(let members)? where members["__type"]?.stringValue == "Date":
            ifUpdatedAt = members["iso"]?.stringValue.flatMap(BmobDateFormat.parse)
        default:
            break
        }
        if body["ifUpdatedAt"].map({ !$0.isNull }) == true, ifUpdatedAt == nil {
            throw BmobAPIError(.invalidJSON, "ifUpdatedAt must be a Bmob date (\"yyyy-MM-dd HH:mm:ss\" or a Date object)")
        }
        return (seq, ifUpdatedAt)
    }
}
