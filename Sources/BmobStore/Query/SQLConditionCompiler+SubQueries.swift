import BmobWire

extension SQLConditionCompiler {
    /// `SELECT <key> FROM "<Class>" [WHERE …]` for `$select`, `$dontSelect`, `$inQuery` and `$notInQuery`
    /// (`objectId` when `key` is `nil`); `nil` when the class does not exist. Bare names inside refer to the
    /// sub-query's table, the innermost one that has them.
    ///
    /// `outerKind` is what the expression compared with the key holds (``SQLDialect/keyOperand(_:kind:otherKind:)``).
    mutating func subSelect(
        _ query: SubQuery, key: String?, outerKind: SQLOperandKind = .text, _ scope: Scope
    ) throws -> SQLFragment? {
        let table = try SQLTableName(className: query.className)
        let keyPath = try key.map { key throws(StoreError) in try SQLFieldPath(key) }
        guard let fields = classes[query.className] else { return nil }
        let inner = scope.entering(className: query.className, fields: fields)
        var column = "objectId"
        if let keyPath {
            let schema = keyPath.schema(in: fields)
            column = dialect.keyOperand(
                dialect.comparable(keyPath, schema: schema), kind: dialect.comparableKind(keyPath, schema: schema),
                otherKind: outerKind)
        }
        var fragment = SQLFragment("SELECT \(column) FROM \(table.quoted)")
        var whereClause = SQLFragment.alwaysTrue
        if let condition = query.condition {
            whereClause = try compile(condition, inner)
        }
        if let readers {
            whereClause = .all([whereClause, dialect.readable(by: readers)])
        }
        if !whereClause.isAlwaysTrue {
            fragment.append(" WHERE ")
            fragment.append(whereClause)
        }
        return fragment
    }

    /// `outer IN (SELECT <key> FROM <query's class> …)` for `$select` and `$dontSelect`, both sides in types that
    /// compare (``SQLDialect/keyOperand(_:kind:otherKind:)``); `nil` when the class does not exist.
    mutating func keyInQuery(
        _ outer: String, kind outerKind: SQLOperandKind, key: String, _ query: SubQuery, _ scope: Scope
    ) throws -> SQLFragment? {
        guard let fields = classes[query.className] else { return nil }
        let path = try SQLFieldPath(key)
        let innerKind = dialect.comparableKind(path, schema: path.schema(in: fields))
        guard let select = try subSelect(query, key: key, outerKind: outerKind, scope) else { return nil }
        return Self.isIn(dialect.keyOperand(outer, kind: outerKind, otherKind: innerKind), select)
    }

    /// `$inQuery` on a Pointer: its `objectId` is among the sub-query's objects and its `className` is the
    /// sub-query's class. `nil` when that class does not exist.
    mutating func pointerInQuery(_ target: SQLValueTarget, _ query: SubQuery, _ scope: Scope) throws -> SQLFragment? {
        let objectId = try target.member("objectId", dialect)
        let className = try target.member("className", dialect)
        guard let select = try subSelect(query, key: nil, scope) else { return nil }
        return .all([Self.isIn(objectId, select), SQLFragment("\(className) = ?", [.text(query.className)])])
    }
}
