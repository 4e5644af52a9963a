import BmobWire

/// A canonical form of a condition for semantic comparison: `and`s are flattened into sorted lists of
/// single-constraint field conditions (so `{"a":{"$gt":1,"$lt":5}}` and `$and` of the two compare equal),
/// one-element `and`s unwrapped, and sub-query conditions normalized, with an empty `and` meaning "none".
func normalized(_ condition: QueryCondition) -> QueryCondition {
    switch condition {
    case .and(let children):
        var atoms: [QueryCondition] = []
        for child in children {
            let normal = normalized(child)
            if case .and(let inner) = normal { atoms += inner } else { atoms.append(normal) }
        }
        atoms.sort { WhereEncoder.encode($0).jsonString < WhereEncoder.encode($1).jsonString }
        return atoms.count == 1 ? atoms[0] : .and(atoms)
    case .or(let children):
        return .or(children.map(normalized))
    case .field(let path, let constraints):
        if constraints.count == 1 { return .field(path: path, constraints: [normalized(constraints[0])]) }
        return normalized(.and(constraints.map { .field(path: path, constraints: [$0]) }))
    case .relatedTo:
        return condition
    }
}

/// `nil` for no condition or an empty `and`, the normalized condition otherwise.
func normalized(_ condition: QueryCondition?) -> QueryCondition? {
    guard let condition else { return nil }
    let normal = normalized(condition)
    if case .and(let parts) = normal, parts.isEmpty { return nil }
    return normal
}

private func normalized(_ constraint: FieldConstraint) -> FieldConstraint {
    switch constraint {
    case .matchesKeyInQuery(let key, let query): .matchesKeyInQuery(key: key, query: normalized(query))
    case .doesNotMatchKeyInQuery(let key, let query): .doesNotMatchKeyInQuery(key: key, query: normalized(query))
    case .matchesQuery(let query): .matchesQuery(normalized(query))
    case .doesNotMatchQuery(let query): .doesNotMatchQuery(normalized(query))
    default: constraint
    }
}

private func normalized(_ query: SubQuery) -> SubQuery {
    SubQuery(className: query.className, condition: normalized(query.condition))
}
