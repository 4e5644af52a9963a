import BmobStore
package import BmobWire
import BmobServerCodecs

/// Finding, counting and aggregating objects: the behaviour behind REST `GET /1/classes/<C>`, `/1/cloudQuery`
/// and the native protocol's `find` and `cloud_query`. Every query, with its sub-queries, is authorized by
/// ``QueryAuthorization`` before it runs.
package struct QueryService: Sendable {
    /// Who the caller is: results hold only objects the caller may read.
    package let callers: CallerResolver

    package init(callers: CallerResolver) {
        self.callers = callers
    }

    /// Runs a find and answers the JSON text of `{"results":[…]}`, plus `"count"` when asked; statistics
    /// queries answer their rows as results.
    ///
    /// Plain finds (no `keys`, no `include`, dates in UTC) pass each object's stored JSON through without
    /// parsing it; the others build the objects as values.
    ///
    /// - Throws: ``BmobAPIError`` (102 bad query values, 103 class names).
    package func find(_ query: FindQuery, context: AppContext) async throws -> [UInt8] {
        try ObjectService.validateClassName(query.className)
        let scope = try await callers.caller(context).scope
        var scoped = query
        scoped.readers = scope.readers
        let query = scoped
        let renderer = context.renderer(for: scope)
        let privacy = renderer.privacy ?? UserPrivacy(protectedFields: [], viewer: scope)
        // Users need rendering (``UserPrivacy``) unless the master key asks.
        let rendersUsers = query.className == UserService.className && scope != .master
        if query.aggregation == nil, query.keys == nil, query.include.isEmpty, renderer.offsetSeconds == 0, !rendersUsers {
            return try await ObjectService.mapStoreErrors {
                try await context.store.read { transaction in
                    try QueryAuthorization.check(query, scope: scope, privacy: privacy, transaction: transaction)
                    let documents = query.limit > 0 ? try transaction.findDocuments(query) : []
                    let count = query.count ? try transaction.count(query) : nil
                    return Self.encode(documents, count: count, renderer: renderer)
                }
            }
        }
        return try await findValues(query, scope: scope, privacy: privacy, renderer: renderer, context: context).jsonBytes
    }

    /// Runs a BQL statement (REST `/1/cloudQuery`, native `cloud_query`) and answers as ``find(_:context:)``;
    /// `select count(*)` adds `"count"`.
    ///
    /// - Parameters:
    ///   - values: the values of the statement's `?` placeholders.
    ///   - nowMilliseconds: the time `current_timestamp()` stands for.
    /// - Throws: ``BmobAPIError`` 601 for an invalid statement, and the errors of ``find(_:context:)``.
    package func cloudQuery(bql: String, values: [JSONValue], nowMilliseconds: Int64, context: AppContext) async throws -> [UInt8] {
        var statement: BQLStatement
        do {
            statement = try BQLParser.parse(bql, values: values, nowMilliseconds: nowMilliseconds)
        } catch {
            throw BmobAPIError(query: error)
        }
        if statement.countRequested { statement.query.count = true }
        return try await find(statement.query, context: context)
    }

    /// Splices stored documents into `{"results":[…],"count":n}`: each object's field text, then its system
    /// fields.
    static func encode(_ documents: [StoredDocument], count: Int?, renderer: ObjectRenderer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(32 + documents.reduce(0) { $0 + $1.data.count + ($1.acl?.count ?? 0) + 110 })
        output.append(contentsOf: #"{"results":["#.utf8)
        for (position, document) in documents.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            renderer.appendJSON(document, to: &output)
        }
        output.append(UInt8(ascii: "]"))
        if let count {
            output.append(contentsOf: #","count":"#.utf8)
            output.append(contentsOf: String(count).utf8)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    private func findValues(
        _ query: FindQuery, scope: AccessScope, privacy: UserPrivacy, renderer: ObjectRenderer, context: AppContext
    ) async throws -> JSONValue {
        try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                try QueryAuthorization.check(query, scope: scope, privacy: privacy, transaction: transaction)
                if query.aggregation != nil {
                    return ["results": .array(try transaction.aggregate(query).map(JSONValue.object))]
                }
                var members: [String: JSONValue] = [:]
                var results: [JSONValue] = []
                if query.limit > 0 {
                    let keys = query.keys.map { Set($0.map { $0.split(separator: ".").first.map(String.init) ?? $0 }) }
                    for object in try transaction.find(query) {
                        var rendered = renderer.render(object, keys: keys)
                        try ObjectService.expand(
                            &rendered, include: query.include, scope: scope, renderer: renderer, transaction: transaction)
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
