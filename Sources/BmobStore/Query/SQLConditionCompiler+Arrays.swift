import BmobWire

extension SQLConditionCompiler {
    /// An operator on an Array field: element tests through `json_each`, so `{"tags": "a"}` means "contains
    /// `a`"; an array operand compares the whole array.
    mutating func array(_ constraint: FieldConstraint, on path: SQLFieldPath, _ scope: Scope) throws -> SQLFragment {
        switch constraint {
        case .equalTo(let value):
            if case .array = value { return try SQLValueMatch.equals(.field(path), SQLQueryValue(value, schema: nil)) }
            return Self.someElement(of: path, try SQLValueMatch.equals(.element, SQLQueryValue(value, schema: nil)))
        case .notEqualTo(let value):
            if case .array = value {
                return try SQLValueMatch.notEquals(.field(path), SQLQueryValue(value, schema: nil))
            }
            return .not(
                Self.someElement(of: path, try SQLValueMatch.equals(.element, SQLQueryValue(value, schema: nil))))
        case .lessThan(let value):
            return Self.someElement(
                of: path, try SQLValueMatch.compare(.element, "<", SQLQueryValue(value, schema: nil)))
        case .lessThanOrEqualTo(let value):
            return Self.someElement(
                of: path, try SQLValueMatch.compare(.element, "<=", SQLQueryValue(value, schema: nil)))
        case .greaterThan(let value):
            return Self.someElement(
                of: path, try SQLValueMatch.compare(.element, ">", SQLQueryValue(value, schema: nil)))
        case .greaterThanOrEqualTo(let value):
            return Self.someElement(
                of: path, try SQLValueMatch.compare(.element, ">=", SQLQueryValue(value, schema: nil)))
        case .containedIn(let values):
            return Self.someElement(of: path, try elementOneOf(values))
        case .notContainedIn(let values):
            return .not(Self.someElement(of: path, try elementOneOf(values)))
        case .containsAll(let values):
            guard !values.isEmpty else { return .alwaysFalse }
            return .all(
                try values.map { value in
                    Self.someElement(of: path, try SQLValueMatch.equals(.element, SQLQueryValue(value, schema: nil)))
                })
        case .exists(let exists):
            return SQLFragment("\(SQLFieldExpression.jsonType(path)) \(exists ? "IS NOT NULL" : "IS NULL")")
        case .matchesRegex(let pattern, let options):
            // JSON text of nested objects is no string: only text elements are tried.
            let match = try Self.regex(pattern: pattern, options: options, subject: "value")
            return Self.someElement(of: path, .all([SQLFragment("type = 'text'"), match]))
        case .matchesKeyInQuery(let key, let query):
            guard let select = try subSelect(query, key: key, scope) else { return .alwaysFalse }
            return Self.someElement(of: path, Self.isIn("value", select))
        case .doesNotMatchKeyInQuery(let key, let query):
            guard let select = try subSelect(query, key: key, scope) else { return .alwaysTrue }
            return .not(Self.someElement(of: path, Self.isIn("value", select)))
        case .matchesQuery(let query):
            guard let match = try pointerInQuery(.element, query, scope) else { return .alwaysFalse }
            return Self.someElement(of: path, match)
        case .doesNotMatchQuery(let query):
            guard let match = try pointerInQuery(.element, query, scope) else { return .alwaysTrue }
            return .not(Self.someElement(of: path, match))
        case .nearSphere, .withinBox:
            throw StoreError.invalidQuery("geo queries need a GeoPoint field, not an Array")
        }
    }

    /// `EXISTS (SELECT 1 FROM json_each(data, '$.<path>') WHERE <condition>)`; `data` is the enclosing
    /// table's, since `json_each` has no column of that name.
    static func someElement(of path: SQLFieldPath, _ condition: SQLFragment) -> SQLFragment {
        if condition.isAlwaysFalse { return .alwaysFalse }
        var fragment = SQLFragment("EXISTS (SELECT 1 FROM json_each(data, '\(path.jsonPath())')")
        if !condition.isAlwaysTrue {
            fragment.append(" WHERE ")
            fragment.append(condition)
        }
        fragment.append(")")
        return fragment
    }

    private func elementOneOf(_ values: [JSONValue]) throws -> SQLFragment {
        try SQLValueMatch.oneOf(.element, values.map { try SQLQueryValue($0, schema: nil) })
    }
}
