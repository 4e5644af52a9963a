extension QueryCondition {
    /// A canonical form for comparing conditions by meaning: `and`s flattened into sorted lists of
    /// single-constraint field conditions (so `{"a":{"$gt":1,"$lt":5}}` and the `$and` of the two compare
    /// equal), one-element `and`s unwrapped, sub-query conditions normalised. Used by the round-trip tests
    /// and fuzz targets of the where parser and encoder.
    package var normalized: QueryCondition {
        switch self {
        case .and(let children):
            var atoms: [QueryCondition] = []
            for child in children {
                let normal = child.normalized
                if case .and(let inner) = normal { atoms += inner } else { atoms.append(normal) }
            }
            atoms.sort { WhereEncoder.encode($0).jsonString < WhereEncoder.encode($1).jsonString }
            return atoms.count == 1 ? atoms[0] : .and(atoms)
        case .or(let children):
            return .or(children.map(\.normalized))
        case .field(let path, let constraints):
            if constraints.count == 1 { return .field(path: path, constraints: [Self.normalized(constraints[0])]) }
            return QueryCondition.and(constraints.map { .field(path: path, constraints: [$0]) }).normalized
        case .relatedTo:
            return self
        }
    }

    /// `nil` for no condition or an empty `and`, the normalised condition otherwise.
    package static func normalized(_ condition: QueryCondition?) -> QueryCondition? {
        guard let condition else { return nil }
        let normal = condition.normalized
        if case .and(let parts) = normal, parts.isEmpty { return nil }
        return normal
    }

    private static func normalized(_ constraint: FieldConstraint) -> FieldConstraint {
        switch constraint {
        case .matchesKeyInQuery(let key, let query): .matchesKeyInQuery(key: key, query: normalized(query))
        case .doesNotMatchKeyInQuery(let key, let query): .doesNotMatchKeyInQuery(key: key, query: normalized(query))
        case .matchesQuery(let query): .matchesQuery(normalized(query))
        case .doesNotMatchQuery(let query): .doesNotMatchQuery(normalized(query))
        default: constraint
        }
    }

    private static func normalized(_ query: SubQuery) -> SubQuery {
        SubQuery(className: query.className, condition: normalized(query.condition))
    }
}
