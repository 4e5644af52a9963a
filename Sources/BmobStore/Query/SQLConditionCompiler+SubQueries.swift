import BmobWire

extension SQLConditionCompiler {
    /// `SELECT <key> FROM "<Class>" [WHERE …]` for `$select`, `$dontSelect`, `$inQuery` and `$notInQuery`
    /// (`objectId` when `key` is `nil`); `nil` when the class does not exist. Bare names inside refer to the
    /// sub-query's table, the innermost one that has them.
    mutating func subSelect(_ query: SubQuery, key: String?, _ scope: Scope) throws -> SQLFragment? {
        let table = try SQLTableName(className: query.className)
        let keyPath = try key.map { key throws(StoreError) in try SQLFieldPath(key) }
        guard let fields = classes[query.className] else { return nil }
        let inner = scope.entering(className: query.className, fields: fields)
        let column = keyPath.map { dialect.comparable($0, schema: $0.schema(in: fields)) } ?? "objectId"
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

    /// `$inQuery` on a Pointer: its `objectId` is among the sub-query's objects and its `className` is the
    /// sub-query's class. `nil` when that class does not exist.
    mutating func pointerInQuery(_ target: SQLValueTarget, _ query: SubQuery, _ scope: Scope) throws -> SQLFragment? {
        let objectId = try target.member("objectId", dialect)
        let className = try target.member("className", dialect)
        guard let select = try subSelect(query, key: nil, scope) else { return nil }
        return .all([Self.isIn(objectId, select), SQLFragment("\(className) = ?", [.text(query.className)])])
    }
}
