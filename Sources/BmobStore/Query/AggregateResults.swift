/// The result columns an aggregate query is building, with their SQL, looked up by name case-insensitively
/// (Bmob's docs write `-_sumscore` for `_sumScore`).
struct AggregateResults {
    /// The columns in `SELECT` order.
    private(set) var columns: [SQLAggregateStatement.Column] = []
    /// The `SELECT` list; a JSON column adds its `json_type` right after its value.
    private(set) var selected: [String] = []
    /// Expressions by lower-cased result name; the first of two equal names wins.
    private var byName: [String: (expression: String, kind: SQLAggregateStatement.Column.Kind)] = [:]

    /// Adds a column; `typeExpression` is the `json_type` a ``SQLAggregateStatement/Column/Kind-swift.enum/json``
    /// column needs.
    mutating func add(
        _ name: String,
        _ expression: String,
        _ kind: SQLAggregateStatement.Column.Kind,
        typeExpression: String? = nil
    ) {
        columns.append(SQLAggregateStatement.Column(name: name, kind: kind))
        selected.append(expression)
        if kind == .json, let typeExpression { selected.append(typeExpression) }
        let key = name.lowercased()
        if byName[key] == nil { byName[key] = (expression, kind) }
    }

    /// The expression of a result, by any spelling of its name.
    func named(_ name: String) -> (expression: String, kind: SQLAggregateStatement.Column.Kind)? {
        byName[name.lowercased()]
    }
}
