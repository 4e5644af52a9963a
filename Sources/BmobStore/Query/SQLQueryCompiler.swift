package import BmobWire

/// Turns a ``FindQuery`` into SQL and bound values in `Dialect`'s spelling, following the storage conventions
/// of the object service. Pure: it needs the schema registry's fields, not a database.
///
/// A class is a table (`objectId`, `createdAt`, `updatedAt` in milliseconds, `acl`, `data` as a JSON object);
/// a field `f` is the dialect's ``SQLDialect/field(_:member:)`` (`json_extract(data, '$.f')` on SQLite), the
/// spelling index creation shares so that the planner uses declared indexes. Every value is bound; class
/// names pass ``SQLTableName`` and field paths ``SQLFieldPath`` before they reach the text.
///
/// Operators, by what the field holds:
/// - plain values compare as they are (`=`, `<`, `IN`); `$ne` and `$nin` also match a missing field;
/// - Dates compare the normalised `iso` text; `createdAt`/`updatedAt` compare milliseconds, to the second;
/// - Pointers compare `objectId` and `className`; other objects their canonical JSON text;
/// - Array fields (per the schema registry) test elements (``SQLDialect/someElement(of:where:)``);
/// - Relation fields and `$relatedTo` look up `__relation`;
/// - `$regex` and `$nearSphere` use the dialect's ``SQLDialect/regexMatch(pattern:options:subject:)`` and
///   ``SQLDialect/distance(from:latitude:longitude:)`` (ordering by distance unless the query orders);
/// - `$select`, `$dontSelect`, `$inQuery`, `$notInQuery` are sub-selects on the other class's table, and a
///   class that does not exist matches nothing (everything, for the negations).
///
/// ## Topics
/// ### Statements
/// - ``find(_:)``
/// - ``count(_:)``
/// - ``aggregate(_:)``
/// - ``whereClause(_:className:)``
package struct SQLQueryCompiler<Dialect: SQLDialect>: Sendable {
    /// How the engine spells the SQL.
    package var dialect: Dialect
    /// The recorded fields of every class that exists.
    package var classes: [String: [String: FieldSchema]]

    /// A compiler for `dialect` over the schema registry's classes and fields; a class absent here does not exist.
    package init(dialect: Dialect, classes: [String: [String: FieldSchema]]) {
        self.dialect = dialect
        self.classes = classes
    }

    /// `SELECT objectId, createdAt, updatedAt, acl, data FROM "<Class>" WHERE … ORDER BY … LIMIT <n> OFFSET ?`.
    ///
    /// - Returns: `nil` when the class does not exist (the query finds nothing).
    /// - Throws: ``StoreError``: ``StoreError/Code/invalidClassName``, ``StoreError/Code/invalidFieldName``,
    ///   ``StoreError/Code/invalidQuery``.
    package func find(_ query: FindQuery) throws -> SQLFragment? {
        let table = try SQLTableName(className: query.className)
        guard let fields = classes[query.className] else { return nil }
        var conditions = SQLConditionCompiler(dialect: dialect, classes: classes)
        let whereClause = try filter(query, &conditions)
        var statement = SQLFragment("SELECT \(Self.selectedColumns) FROM \(table.quoted)")
        Self.append(where: whereClause, to: &statement)
        if !query.order.isEmpty {
            statement.append(" ORDER BY \(try order(query.order, fields: fields))")
        } else if let nearest = conditions.nearestOrder {
            statement.append(" ORDER BY ")
            statement.append(nearest)
        }
        Self.append(limit: query.limit, skip: query.skip, to: &statement)
        try checkBoundValues(statement)
        return statement
    }

    /// `SELECT count(*) FROM "<Class>" WHERE …`; order, limit and skip do not apply.
    ///
    /// - Returns: `nil` when the class does not exist (the count is 0).
    /// - Throws: ``StoreError``, as ``find(_:)``.
    package func count(_ query: FindQuery) throws -> SQLFragment? {
        let table = try SQLTableName(className: query.className)
        guard classes[query.className] != nil else { return nil }
        var conditions = SQLConditionCompiler(dialect: dialect, classes: classes)
        let whereClause = try filter(query, &conditions)
        var statement = SQLFragment("SELECT count(*) FROM \(table.quoted)")
        Self.append(where: whereClause, to: &statement)
        try checkBoundValues(statement)
        return statement
    }

    /// The `WHERE` condition alone, for callers that build their own statement on a class table.
    ///
    /// - Throws: ``StoreError``, as ``find(_:)``.
    package func whereClause(_ condition: QueryCondition?, className: String) throws -> SQLFragment {
        _ = try SQLTableName(className: className)
        var conditions = SQLConditionCompiler(dialect: dialect, classes: classes)
        let clause = try conditions.compile(condition, className: className)
        try checkBoundValues(clause)
        return clause
    }

    /// Refuses a statement that binds more than the dialect's ``SQLDialect/maximumBoundValues``. The query
    /// parsers keep `where`s well below it; a statement above it (very many ACL readers repeated in many
    /// sub-queries, say) is refused here with a clear message rather than by the engine.
    ///
    /// - Throws: ``StoreError/Code/invalidQuery``.
    func checkBoundValues(_ statement: SQLFragment) throws(StoreError) {
        let limit = dialect.maximumBoundValues
        guard statement.arguments.count <= limit else {
            throw StoreError.invalidQuery(
                "the query is too large for the database (more than \(limit) values); use fewer "
                    + "$in values or conditions")
        }
    }

    /// `ORDER BY` terms for field paths and system columns (`-score` descending); Dates order by their
    /// `iso` text, exactly the expression an index on the field holds.
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` for an aggregate result name (only aggregate queries have
    ///   them), ``StoreError/Code/invalidFieldName`` for an invalid path.
    func order(_ keys: [OrderKey], fields: [String: FieldSchema]) throws -> String {
        var terms: [String] = []
        for key in keys {
            if key.path.hasPrefix("_") {
                throw StoreError.invalidQuery("'\(key.path)' can only order an aggregate query")
            }
            let path = try SQLFieldPath(key.path)
            let expression = dialect.comparable(path, schema: path.schema(in: fields))
            terms.append(dialect.orderTerm(expression, descending: key.descending))
        }
        return terms.joined(separator: ", ")
    }

    /// The query's condition, and when it has ``FindQuery/readers`` the ACL check: no ACL, or an ACL entry of
    /// one of the readers with `"read": true`.
    func filter(_ query: FindQuery, _ conditions: inout SQLConditionCompiler<Dialect>) throws -> SQLFragment {
        conditions.readers = query.readers
        let condition = try conditions.compile(query.condition, className: query.className)
        guard let readers = query.readers else { return condition }
        return SQLFragment.all([condition, dialect.readable(by: readers)])
    }

    /// The columns a find selects for whole objects, in the order an engine's rows decode them.
    package static var selectedColumns: String { "objectId, createdAt, updatedAt, acl, data" }

    static func append(where condition: SQLFragment, to statement: inout SQLFragment) {
        guard !condition.isAlwaysTrue else { return }
        statement.append(" WHERE ")
        statement.append(condition)
    }

    /// ` LIMIT <n>`, then ` OFFSET ?` when skipping. The limit is written into the text (an integer, a few distinct
    /// values) and a zero offset left out: PostgreSQL prices a `LIMIT` or `OFFSET` parameter as a tenth of the rows,
    /// so a prepared query with either never gets its generic plan and is planned anew on every execution.
    static func append(limit: Int, skip: Int, to statement: inout SQLFragment) {
        statement.append(" LIMIT \(max(0, limit))")
        guard skip > 0 else { return }
        statement.append(" OFFSET ?")
        statement.arguments.append(.integer(Int64(skip)))
    }
}
