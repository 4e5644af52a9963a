import BmobWire

/// Comparisons of one ``SQLValueTarget`` with query values, following the storage conventions of
/// ``SQLQueryValue``, spelled by a dialect. Values are always bound.
enum SQLValueMatch {
    /// Equal: `whole = ?`, `iso = ?` for dates, `objectId = ? AND className = ?` for pointers, `IS NULL` for null.
    static func equals(
        _ target: SQLValueTarget, _ value: SQLQueryValue, _ dialect: some SQLDialect
    ) throws(StoreError) -> SQLFragment {
        switch value {
        case .null:
            return SQLFragment(target.isNull(dialect))
        case .scalar(let scalar):
            return SQLFragment("\(target.whole(dialect)) = ?", [target.bind(scalar, dialect)])
        case .document(let text):
            return SQLFragment("\(target.whole(dialect)) = ?", [.text(text)])
        case .date(let iso, _):
            return SQLFragment("\(try target.member("iso", dialect)) = ?", [.text(iso)])
        case .pointer(let pointer):
            return SQLFragment(
                "(\(try target.member("objectId", dialect)) = ? AND \(try target.member("className", dialect)) = ?)",
                [.text(pointer.objectId), .text(pointer.className)])
        }
    }

    /// Not equal, where a missing field counts as not equal (``SQLDialect/distinctOperator``).
    static func notEquals(
        _ target: SQLValueTarget, _ value: SQLQueryValue, _ dialect: some SQLDialect
    ) throws(StoreError) -> SQLFragment {
        switch value {
        case .null:
            return SQLFragment(target.isNotNull(dialect))
        case .scalar(let scalar):
            return SQLFragment(
                "\(target.whole(dialect)) \(dialect.distinctOperator) ?", [target.bind(scalar, dialect)])
        case .document(let text):
            return SQLFragment("\(target.whole(dialect)) \(dialect.distinctOperator) ?", [.text(text)])
        case .date(let iso, _):
            return SQLFragment("\(try target.member("iso", dialect)) \(dialect.distinctOperator) ?", [.text(iso)])
        case .pointer:
            return .isNotTrue(try equals(target, value, dialect))
        }
    }

    /// Equal to one of `values`: one `IN (…)` per kind of value, joined with OR; false for an empty list.
    static func oneOf(
        _ target: SQLValueTarget, _ values: [SQLQueryValue], _ dialect: some SQLDialect
    ) throws(StoreError) -> SQLFragment {
        var plain: [SQLValue] = []
        var dates: [SQLValue] = []
        var pointers: [(className: String, objectIds: [SQLValue])] = []
        var includesNull = false
        for value in values {
            switch value {
            case .null: includesNull = true
            case .scalar(let scalar): plain.append(target.bind(scalar, dialect))
            case .document(let text): plain.append(.text(text))
            case .date(let iso, _): dates.append(.text(iso))
            case .pointer(let pointer):
                if let index = pointers.firstIndex(where: { $0.className == pointer.className }) {
                    pointers[index].objectIds.append(.text(pointer.objectId))
                } else {
                    pointers.append((pointer.className, [.text(pointer.objectId)]))
                }
            }
        }
        var parts: [SQLFragment] = []
        if !plain.isEmpty { parts.append(membership(target.whole(dialect), plain)) }
        if !dates.isEmpty { parts.append(membership(try target.member("iso", dialect), dates)) }
        for (className, objectIds) in pointers {
            parts.append(
                .all([
                    membership(try target.member("objectId", dialect), objectIds),
                    SQLFragment("\(try target.member("className", dialect)) = ?", [.text(className)]),
                ]))
        }
        if includesNull { parts.append(SQLFragment(target.isNull(dialect))) }
        return .any(parts)
    }

    /// `<`, `<=`, `>`, `>=`; dates compare their `iso` text, which orders as time does; other values as the
    /// dialect orders them (``SQLValueTarget/compare(_:_:_:)``). Null never matches.
    static func compare(
        _ target: SQLValueTarget, _ operation: String, _ value: SQLQueryValue, _ dialect: some SQLDialect
    ) throws(StoreError) -> SQLFragment {
        switch value {
        case .null:
            return .alwaysFalse
        case .scalar(let scalar):
            return target.compare(operation, scalar, dialect)
        case .document(let text):
            return SQLFragment("\(target.whole(dialect)) \(operation) ?", [.text(text)])
        case .date(let iso, _):
            return SQLFragment("\(try target.member("iso", dialect)) \(operation) ?", [.text(iso)])
        case .pointer:
            throw StoreError.invalidQuery("pointers cannot be compared with \(operation)")
        }
    }

    /// `expression = ?` for one value, `expression IN (?, …)` for several.
    static func membership(_ expression: String, _ values: [SQLValue]) -> SQLFragment {
        if values.count == 1 { return SQLFragment("\(expression) = ?", values) }
        return SQLFragment("\(expression) IN (\(SQLFragment.placeholders(values.count)))", values)
    }
}
