/// Writes a ``FindQuery`` as the SDK sends it: REST query parameters or the native `find` `data` object.
/// ``FindQueryDecoder`` reads both back into an equal query.
///
/// Only what differs from the defaults is written: no `limit` for 100, no `skip` for 0, no `keys` for all
/// fields, and so on. `where` and `having` use ``WhereEncoder``'s canonical JSON.
package enum FindQueryEncoder {
    /// The query parameters, unescaped: the caller percent-encodes them (see ``QueryString``) when it builds
    /// the URL. The class goes in the path and is not among them.
    package static func parameters(_ query: FindQuery) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let condition = query.condition {
            parameters.append(("where", WhereEncoder.encode(condition).jsonString))
        }
        if !query.order.isEmpty { parameters.append(("order", order(query.order))) }
        if query.limit != FindQuery.defaultLimit { parameters.append(("limit", String(query.limit))) }
        if query.skip != 0 { parameters.append(("skip", String(query.skip))) }
        if let keys = query.keys, !keys.isEmpty { parameters.append(("keys", keys.joined(separator: ","))) }
        if !query.include.isEmpty { parameters.append(("include", query.include.joined(separator: ","))) }
        if query.count { parameters.append(("count", "1")) }
        if let aggregation = query.aggregation {
            for (name, value) in aggregationMembers(aggregation) {
                switch value {
                case .string(let text): parameters.append((name, text))
                case .bool(let flag): parameters.append((name, flag ? "true" : "false"))
                default: parameters.append((name, value.jsonString))
                }
            }
        }
        return parameters
    }

    /// The native `data` object: `{"where":{…},"limit":n,"skip":n,"order":"-a,b","keys":"a,b","include":"p",
    /// "count":true, "groupby":"a", …}`.
    package static func json(_ query: FindQuery) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let condition = query.condition { members["where"] = WhereEncoder.encode(condition) }
        if !query.order.isEmpty { members["order"] = .string(order(query.order)) }
        if query.limit != FindQuery.defaultLimit { members["limit"] = .int(Int64(query.limit)) }
        if query.skip != 0 { members["skip"] = .int(Int64(query.skip)) }
        if let keys = query.keys, !keys.isEmpty { members["keys"] = .string(keys.joined(separator: ",")) }
        if !query.include.isEmpty { members["include"] = .string(query.include.joined(separator: ",")) }
        if query.count { members["count"] = true }
        if let aggregation = query.aggregation {
            for (name, value) in aggregationMembers(aggregation) { members[name] = value }
        }
        return .object(members)
    }

    /// `-score,name`.
    package static func order(_ keys: [OrderKey]) -> String {
        keys.map { $0.descending ? "-\($0.path)" : $0.path }.joined(separator: ",")
    }

    /// The statistics members in parameter order. An aggregation with nothing set still needs one member to be
    /// recognised, so it writes `groupcount=false` then.
    private static func aggregationMembers(_ aggregation: Aggregation) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if !aggregation.groupBy.isEmpty {
            members.append(("groupby", .string(aggregation.groupBy.joined(separator: ","))))
        }
        if aggregation.groupCount { members.append(("groupcount", true)) }
        let functions = [
            ("sum", aggregation.sum), ("average", aggregation.average), ("max", aggregation.max),
            ("min", aggregation.min),
        ]
        for (name, fields) in functions where !fields.isEmpty {
            members.append((name, .string(fields.joined(separator: ","))))
        }
        if let having = aggregation.having { members.append(("having", WhereEncoder.encode(having))) }
        if members.isEmpty { members.append(("groupcount", false)) }
        return members
    }
}
