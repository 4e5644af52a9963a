package import BmobCore
package import BmobWire
import Foundation

extension BmobQuery {
    /// The matching objects.
    ///
    /// - Throws: ``BmobError`` — a server code (102 bad query, 111…), network errors, or for
    ///   ``BmobCachePolicy/cacheOnly`` code 120 when nothing is cached.
    public func find() async throws -> [BmobObject] {
        let answer = try await fetch(findData(count: false, statistics: false))
        guard let results = (answer["results"] ?? answer).arrayValue else { throw BmobError.jsonParsingFailed }
        return results.compactMap { json in json.objectValue.map { BmobObject(className: className, json: $0) } }
    }

    /// The object with `objectId`, if it matches the query's class. Its ``BmobObject/isEditable`` knows the
    /// current user's roles (looked up when the ACL names roles).
    ///
    /// - Throws: ``BmobError/objectNotFound`` when there is none.
    public func get(objectId: String) async throws -> BmobObject {
        guard !objectId.isEmpty else { throw BmobError.invalidParameter(reason: "objectId is empty") }
        var request: [String: JSONValue] = ["c": .string(className), "objectId": .string(objectId), "data": .null]
        let (keys, include) = lock.withLock { (state.selectedKeys, state.includedKeys) }
        if keys != nil || !include.isEmpty {
            var data: [String: JSONValue] = [:]
            if let keys { data["keys"] = .string(keys.joined(separator: ",")) }
            if !include.isEmpty { data["include"] = .string(include.joined(separator: ",")) }
            request["data"] = .object(data)
        }
        let answer = try await fetch(request)
        guard let members = answer.objectValue, members["objectId"] != nil else { throw BmobError.objectNotFound }
        let object = BmobObject(className: className, json: members)
        await object.loadEditorRoles(client: client)
        return object
    }

    /// The number of matching objects (``limit(_:)`` and ``skip(_:)`` do not apply).
    public func count() async throws -> Int {
        let answer = try await fetch(findData(count: true, statistics: false))
        guard let count = answer["count"]?.int64Value else { throw BmobError.jsonParsingFailed }
        return Int(count)
    }

    /// Runs a statistics query: one dictionary per group, with the group-by fields and the aggregate results
    /// (`_sumAmount`, `_avgAmount`, `_maxAmount`, `_minAmount`, `_count`).
    public func statistics() async throws -> [[String: Any]] {
        let answer = try await fetch(findData(count: false, statistics: true))
        guard let results = (answer["results"] ?? answer).arrayValue else { throw BmobError.jsonParsingFailed }
        return results.compactMap { BmobValueDecoding.value($0) as? [String: Any] }
    }

    // MARK: - Request

    /// The query this ``BmobQuery`` sends to `find`, as BmobWire's model: what the server decodes it into.
    ///
    /// - Parameters:
    ///   - count: Only the number of matches: the condition, `count`, and a limit of 0.
    ///   - statistics: With the statistics members, which replace the selected keys.
    /// - Throws: The first error among the conditions (a value that cannot be encoded, an invalid `having`).
    package func findQuery(count: Bool, statistics: Bool) throws(BmobError) -> FindQuery {
        let (query, error) = lock.withLock { () -> (FindQuery, BmobError?) in
            var query = FindQuery(className: className, condition: state.condition)
            if count {
                query.count = true
                query.limit = 0
                return (query, state.conditionError)
            }
            query.order = state.order
            if let limitValue = state.limitValue { query.limit = limitValue }
            if let skipValue = state.skipValue { query.skip = skipValue }
            query.include = state.includedKeys
            if statistics {
                var sum = state.sumKeys, average = state.averageKeys, max = state.maxKeys, min = state.minKeys
                var groupCount = state.groupCountValue
                var noFunction = sum.isEmpty && average.isEmpty && max.isEmpty && min.isEmpty
                // Without an aggregate function, the selected keys are summed, averaged, maxed and mined.
                if noFunction, let keys = state.selectedKeys, !keys.isEmpty {
                    (sum, average, max, min) = (keys, keys, keys, keys)
                    groupCount = true
                    noFunction = false
                }
                query.aggregation = Aggregation(
                    groupBy: state.groupByKeys, groupCount: groupCount || noFunction, sum: sum, average: average,
                    max: max, min: min, having: state.havingCondition)
            } else {
                query.keys = state.selectedKeys
            }
            return (query, state.conditionError)
        }
        if let error { throw error }
        return query
    }

    /// The native `find` request for this query: the class, and the query's `data` as ``FindQueryEncoder``
    /// writes it.
    func findData(count: Bool, statistics: Bool) throws(BmobError) -> [String: JSONValue] {
        let query = try findQuery(count: count, statistics: statistics)
        return ["c": .string(className), "data": FindQueryEncoder.json(query)]
    }

    /// Sends `request` to `find`, reading and writing the cache as ``cachePolicy`` says. The cache is keyed by
    /// the app and the user the request runs as, taken before it is sent.
    func fetch(_ request: [String: JSONValue]) async throws(BmobError) -> JSONValue {
        let (policy, maxAge, client) = lock.withLock { (state.policy, state.cacheAge, state.clientValue) }
        let owner = BmobQueryCache.Owner(client: client)
        let requestJSON = JSONValue.object(request)
        let cached = { BmobQueryCache.read(owner, route: "find", request: requestJSON) }
        let network = { () async throws(BmobError) -> JSONValue in
            let answer = try await client.call("find", request)
            if policy != .ignoreCache {
                BmobQueryCache.write(owner, route: "find", request: requestJSON, answer: answer)
            }
            return answer
        }
        switch policy {
        case .ignoreCache, .networkOnly:
            return try await network()
        case .cacheOnly:
            guard let hit = cached() else {
                throw .serverError(code: 120, message: "no cached answer for this query")
            }
            return hit.answer
        case .cacheElseNetwork:
            if let hit = cached(), hit.age <= maxAge { return hit.answer }
            return try await network()
        case .networkElseCache:
            do {
                return try await network()
            } catch {
                switch error {
                case .networkError, .timeout:
                    if let hit = cached() { return hit.answer }
                    throw error
                default:
                    throw error
                }
            }
        case .cacheThenNetwork:
            guard let hit = cached() else { return try await network() }
            Task.detached {
                if let answer = try? await client.call("find", request) {
                    BmobQueryCache.write(owner, route: "find", request: requestJSON, answer: answer)
                }
            }
            return hit.answer
        }
    }
}
