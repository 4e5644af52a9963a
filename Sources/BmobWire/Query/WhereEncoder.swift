/// Writes a ``QueryCondition`` as the canonical `where` JSON that ``WhereParser`` reads back.
///
/// The canonical form:
/// - an ``FieldConstraint/equalTo(_:)`` alone on a field is the bare value (`{"name":"smile"}`), unless the
///   value is an object with a `$`-prefixed key, which would read as operators; then it is `$eq`;
/// - several constraints on a field share one operator object; a constraint whose operator is already
///   there (two `$lt`s, say) starts another object, and the objects are joined with `$and`;
/// - an ``QueryCondition/and(_:)`` whose parts have distinct keys (different field paths, at most one `$or`,
///   and so on) is one object; otherwise it is `$and` of its parts;
/// - distances are `$maxDistanceInRadians`; `$options` is left out when empty; sub-queries always carry a
///   `where`, `{}` when they have no condition; `$relatedTo` is at the top level.
package enum WhereEncoder {
    /// The `where` object for `condition`.
    package static func encode(_ condition: QueryCondition) -> JSONValue {
        .object(members(condition))
    }

    /// The `where` object for an optional condition: `{}` for `nil`.
    package static func encode(_ condition: QueryCondition?) -> JSONValue {
        condition.map(encode) ?? .object([:])
    }

    private static func members(_ condition: QueryCondition) -> [String: JSONValue] {
        switch condition {
        case .and(let children):
            let parts = children.map(members)
            var merged: [String: JSONValue] = [:]
            for part in parts {
                for (key, value) in part {
                    guard merged.updateValue(value, forKey: key) == nil else {
                        return ["$and": .array(parts.map(JSONValue.object))]
                    }
                }
            }
            return merged
        case .or(let children):
            return ["$or": .array(children.map(encode))]
        case .field(let path, let constraints):
            let groups = operatorObjects(constraints)
            switch groups.count {
            case 0: return [:]
            case 1: return [path: fieldValue(groups[0])]
            default: return ["$and": .array(groups.map { .object([path: fieldValue($0)]) })]
            }
        case .relatedTo(let object, let key):
            return ["$relatedTo": ["object": object.json, "key": .string(key)]]
        }
    }

    /// The constraints as operator objects, starting a new object whenever an operator repeats.
    private static func operatorObjects(_ constraints: [FieldConstraint]) -> [[String: JSONValue]] {
        var groups: [[String: JSONValue]] = []
        var current: [String: JSONValue] = [:]
        for constraint in constraints {
            let entries = operators(constraint)
            if entries.contains(where: { current[$0.0] != nil }) {
                groups.append(current)
                current = [:]
            }
            for (key, value) in entries { current[key] = value }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// A lone `$eq` whose value cannot be mistaken for operators is written bare.
    private static func fieldValue(_ operators: [String: JSONValue]) -> JSONValue {
        if operators.count == 1, let value = operators["$eq"], !hasOperatorKeys(value) {
            return value
        }
        return .object(operators)
    }

    private static func hasOperatorKeys(_ value: JSONValue) -> Bool {
        if case .object(let members) = value { members.keys.contains { $0.hasPrefix("$") } } else { false }
    }

    /// The operator keys and operands for one constraint.
    package static func operators(_ constraint: FieldConstraint) -> [(String, JSONValue)] {
        switch constraint {
        case .equalTo(let value): [("$eq", value)]
        case .notEqualTo(let value): [("$ne", value)]
        case .lessThan(let value): [("$lt", value)]
        case .lessThanOrEqualTo(let value): [("$lte", value)]
        case .greaterThan(let value): [("$gt", value)]
        case .greaterThanOrEqualTo(let value): [("$gte", value)]
        case .containedIn(let values): [("$in", .array(values))]
        case .notContainedIn(let values): [("$nin", .array(values))]
        case .containsAll(let values): [("$all", .array(values))]
        case .exists(let exists): [("$exists", .bool(exists))]
        case .matchesRegex(let pattern, let options):
            options.isEmpty
                ? [("$regex", .string(pattern))] : [("$regex", .string(pattern)), ("$options", .string(options))]
        case .matchesKeyInQuery(let key, let query): [("$select", select(key: key, query: query))]
        case .doesNotMatchKeyInQuery(let key, let query): [("$dontSelect", select(key: key, query: query))]
        case .matchesQuery(let query): [("$inQuery", subQuery(query))]
        case .doesNotMatchQuery(let query): [("$notInQuery", subQuery(query))]
        case .nearSphere(let point, let maxDistance):
            if let maxDistance {
                [("$nearSphere", point.json), ("$maxDistanceInRadians", .double(maxDistance))]
            } else {
                [("$nearSphere", point.json)]
            }
        case .withinBox(let southwest, let northeast):
            [("$within", ["$box": [southwest.json, northeast.json]])]
        }
    }

    private static func subQuery(_ query: SubQuery) -> JSONValue {
        ["className": .string(query.className), "where": encode(query.condition)]
    }

    private static func select(key: String, query: SubQuery) -> JSONValue {
        ["query": subQuery(query), "key": .string(key)]
    }
}
