import BmobWire

extension SQLConditionCompiler {
    /// An operator on `createdAt` or `updatedAt`, INTEGER milliseconds. Query values may be Dates, date
    /// strings (JavaScript sends `updatedAt` raw) or milliseconds.
    ///
    /// Clients see these dates to the second, so a value without a sub-second part stands for its whole
    /// second: `= "…10:00:00"` matches 10:00:00.000 up to 10:00:00.999, and `$gt` starts at the next second.
    /// Every form stays a range on the column, which an index on it serves.
    mutating func dateColumn(_ constraint: FieldConstraint, column: String, _ scope: Scope) throws -> SQLFragment {
        switch constraint {
        case .equalTo(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysFalse }
            return SQLFragment(
                "(\(column) >= ? AND \(column) < ?)", [.integer(range.lowerBound), .integer(range.upperBound)])
        case .notEqualTo(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysTrue }
            return SQLFragment(
                "(\(column) < ? OR \(column) >= ?)", [.integer(range.lowerBound), .integer(range.upperBound)])
        case .lessThan(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysFalse }
            return SQLFragment("\(column) < ?", [.integer(range.lowerBound)])
        case .lessThanOrEqualTo(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysFalse }
            return SQLFragment("\(column) < ?", [.integer(range.upperBound)])
        case .greaterThan(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysFalse }
            return SQLFragment("\(column) >= ?", [.integer(range.upperBound)])
        case .greaterThanOrEqualTo(let value):
            guard let range = try Self.milliseconds(value) else { return .alwaysFalse }
            return SQLFragment("\(column) >= ?", [.integer(range.lowerBound)])
        case .containedIn(let values):
            return .any(
                try values.compactMap { value in
                    try Self.milliseconds(value).map { range in
                        SQLFragment(
                            "(\(column) >= ? AND \(column) < ?)",
                            [.integer(range.lowerBound), .integer(range.upperBound)])
                    }
                })
        case .notContainedIn(let values):
            return .all(
                try values.compactMap { value in
                    try Self.milliseconds(value).map { range in
                        SQLFragment(
                            "(\(column) < ? OR \(column) >= ?)",
                            [.integer(range.lowerBound), .integer(range.upperBound)])
                    }
                })
        case .exists(let exists):
            return exists ? .alwaysTrue : .alwaysFalse
        case .matchesRegex(let pattern, let options):
            // Only strings match a pattern; still reject a bad one.
            _ = try regex(pattern: pattern, options: options, subject: column)
            return .alwaysFalse
        case .matchesKeyInQuery(let key, let query):
            return try keyInQuery(column, kind: .milliseconds, key: key, query, scope) ?? .alwaysFalse
        case .doesNotMatchKeyInQuery(let key, let query):
            guard let match = try keyInQuery(column, kind: .milliseconds, key: key, query, scope) else { return .alwaysTrue }
            return .isNotTrue(match)
        case .containsAll, .matchesQuery, .doesNotMatchQuery, .nearSphere, .withinBox:
            throw StoreError.invalidQuery("this operator does not apply to \(column)")
        }
    }

    /// The milliseconds a query value stands for, as a half-open range; `nil` for null.
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` for anything that is not a date.
    static func milliseconds(_ value: JSONValue) throws(StoreError) -> Range<Int64>? {
        let text: String
        switch value {
        case .null:
            return nil
        case .int, .double:
            guard let milliseconds = value.int64Value, milliseconds < Int64.max else {
                throw StoreError.invalidQuery("invalid date in query")
            }
            return milliseconds..<milliseconds + 1
        case .string(let string):
            text = string
        case .object(let members) where members["__type"]?.stringValue == "Date":
            guard let iso = members["iso"]?.stringValue else { throw StoreError.invalidQuery("invalid date in query") }
            text = iso
        default:
            throw StoreError.invalidQuery("invalid date in query")
        }
        guard let milliseconds = BmobDateFormat.parse(text) else {
            throw StoreError.invalidQuery("invalid date in query")
        }
        let wholeSecond = milliseconds % 1000 == 0
        return milliseconds..<milliseconds + (wholeSecond ? 1000 : 1)
    }
}
