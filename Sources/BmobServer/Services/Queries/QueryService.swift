import BmobStore
package import BmobWire

/// Finding, counting and aggregating objects: the behaviour behind REST `GET /1/classes/<C>`, `/1/cloudQuery`
/// and the native protocol's `find` and `cloud_query`.
package struct QueryService: Sendable {
    package init() {}

    /// Runs a find and answers `{"results":[…]}`, plus `"count"` when asked; statistics queries answer their
    /// rows as results.
    ///
    /// - Throws: ``BmobAPIError`` (102 bad query values, 103 class names).
    package func find(_ query: FindQuery, context: AppContext) async throws -> JSONValue {
        try ObjectService.validateClassName(query.className)
        let renderer = context.renderer
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                if query.aggregation != nil {
                    return ["results": .array(try transaction.aggregate(query).map(JSONValue.object))]
                }
                var members: [String: JSONValue] = [:]
                var results: [JSONValue] = []
                if query.limit > 0 {
                    let keys = query.keys.map { Set($0.map { $0.split(separator: ".").first.map(String.init) ?? $0 }) }
                    for object in try transaction.find(query) {
                        var rendered = renderer.render(object, keys: keys)
                        try ObjectService.expand(&rendered, include: query.include, renderer: renderer, transaction: transaction)
                        results.append(.object(rendered))
                    }
                }
                members["results"] = .array(results)
                if query.count {
                    members["count"] = .int(Int64(try transaction.count(query)))
                }
                return .object(members)
            }
        }
    }
}
