import BmobWire

extension SQLConditionCompiler {
    /// An operator on an Array field: element tests (``SQLDialect/someElement(of:where:)``), so `{"tags": "a"}`
    /// means "contains `a`"; an array operand compares the whole array.
    mutating func array(_ constraint: FieldConstraint, on path: SQLFieldPath, _ scope: Scope) throws -> SQLFragment {
        switch constraint {
        case .equalTo(let value):
            if case .array = value { return try SQLValueMatch.equals(.field(path), queryValue(value), dialect) }
            return someElement(of: path, try SQLValueMatch.equals(.element, queryValue(value), dialect))
        case .notEqualTo(let value):
            if case .array = value {
                return try SQLValueMatch.notEquals(.field(path), queryValue(value), dialect)
            }
            return .not(
                someElement(of: path, try SQLValueMatch.equals(.element, queryValue(value), dialect)))
        case .lessThan(let value):
            return someElement(
                of: path, try SQLValueMatch.compare(.element, "<", queryValue(value), dialect))
        case .lessThanOrEqualTo(let value):
            return someElement(
                of: path, try SQLValueMatch.compare(.element, "<=", queryValue(value), dialect))
        case .greaterThan(let value):
            return someElement(
                of: path, try SQLValueMatch.compare(.element, ">", queryValue(value), dialect))
        case .greaterThanOrEqualTo(let value):
            return someElement(
                of: path, try SQLValueMatch.compare(.element, ">=", queryValue(value), dialect))
        case .containedIn(let values):
            return someElement(of: path, try elementOneOf(values))
        case .notContainedIn(let values):
            return .not(someElement(of: path, try elementOneOf(values)))
        case .containsAll(let values):
            guard !values.isEmpty else { return .alwaysFalse }
            return .all(
                try values.map { value in
                    someElement(of: path, try SQLValueMatch.equals(.element, queryValue(value), dialect))
                })
        case .exists(let exists):
            return SQLFragment("\(dialect.fieldType(path)) \(exists ? "IS NOT NULL" : "IS NULL")")
        case .matchesRegex(let pattern, let options):
            // JSON text of nested objects is no string: only text elements are tried.
            let match = try regex(pattern: pattern, options: options, subject: dialect.elementValue)
            return someElement(of: path, .all([SQLFragment(dialect.elementIsString), match]))
        case .matchesKeyInQuery(let key, let query):
            guard let match = try keyInQuery(dialect.elementValue, kind: .value, key: key, query, scope) else {
                return .alwaysFalse
            }
            return someElement(of: path, match)
        case .doesNotMatchKeyInQuery(let key, let query):
            guard let match = try keyInQuery(dialect.elementValue, kind: .value, key: key, query, scope) else {
                return .alwaysTrue
            }
            return .not(someElement(of: path, match))
        case .matchesQuery(let query):
            guard let match = try pointerInQuery(.element, query, scope) else { return .alwaysFalse }
            return someElement(of: path, match)
        case .doesNotMatchQuery(let query):
            guard let match = try pointerInQuery(.element, query, scope) else { return .alwaysTrue }
            return .not(someElement(of: path, match))
        case .nearSphere, .withinBox:
            throw StoreError.invalidQuery("geo queries need a GeoPoint field, not an Array")
        }
    }

    /// Some element of the array satisfies `condition` (folding constants).
    func someElement(of path: SQLFieldPath, _ condition: SQLFragment) -> SQLFragment {
        if condition.isAlwaysFalse { return .alwaysFalse }
        return dialect.someElement(of: path, where: condition.isAlwaysTrue ? nil : condition)
    }

    private func elementOneOf(_ values: [JSONValue]) throws -> SQLFragment {
        try SQLValueMatch.oneOf(.element, values.map { try queryValue($0) }, dialect)
    }
}
