package import BmobWire

extension SQLQueryCompiler {
    /// The statement for a query's ``Aggregation``: `groupby` fields (a Date field or `createdAt`/`updatedAt`
    /// groups by UTC day, `YYYY-MM-DD`), `_count`, `_sum…`, `_avg…`, `_max…`, `_min…` (names from
    /// ``Aggregation/resultName(_:_:)``), `having` and `order` on result names matched case-insensitively
    /// (`-_sumscore`), then limit and skip. `groupby` alone gives the distinct values.
    ///
    /// - Returns: `nil` when the class does not exist (no rows).
    /// - Throws: ``StoreError/Code/invalidQuery`` when the query has no aggregation, asks for nothing, or
    ///   names an unknown result in `having` or `order`; other ``StoreError``s as ``find(_:)``.
    package func aggregate(_ query: FindQuery) throws -> SQLAggregateStatement? {
        guard let aggregation = query.aggregation else { throw StoreError.invalidQuery("the query has no aggregation") }
        let table = try SQLTableName(className: query.className)
        guard let fields = classes[query.className] else { return nil }
        var conditions = SQLConditionCompiler(dialect: dialect, classes: classes)
        let whereClause = try filter(query, &conditions)

        var results = AggregateResults()
        var groups: [String] = []
        for name in aggregation.groupBy {
            let path = try SQLFieldPath(name)
            let schema = path.schema(in: fields)
            let expression: String
            var kind = SQLAggregateStatement.Column.Kind.value
            if path.isSystemColumn, SQLFieldExpression.dateColumns.contains(path.field) {
                expression = dialect.day(ofMilliseconds: path.field)
            } else if path.isSystemColumn {
                expression = path.field
            } else if schema?.type == .date {
                expression = "substr(\(dialect.field(path, member: "iso")), 1, 10)"
            } else {
                expression = dialect.field(path)
                kind = .json
            }
            groups.append(expression)
            results.add(name, expression, kind, typeExpression: dialect.fieldType(path))
        }
        if aggregation.groupCount {
            results.add("_count", "count(*)", .value)
        }
        let functions: [(name: String, fields: [String])] = [
            ("sum", aggregation.sum), ("avg", aggregation.average), ("max", aggregation.max), ("min", aggregation.min),
        ]
        for (function, names) in functions {
            for name in names {
                let path = try SQLFieldPath(name)
                let schema = path.schema(in: fields)
                var expression = dialect.comparable(path, schema: schema)
                if !path.isSystemColumn, schema?.type != .date, schema?.type != .pointer {
                    expression = dialect.number(expression)
                }
                var kind = SQLAggregateStatement.Column.Kind.value
                if function == "max" || function == "min" {
                    if path.isSystemColumn, SQLFieldExpression.dateColumns.contains(path.field) {
                        kind = .milliseconds
                    } else if schema?.type == .date {
                        kind = .date
                    }
                }
                let call = function == "sum" ? "COALESCE(sum(\(expression)), 0)" : "\(function)(\(expression))"
                results.add(Aggregation.resultName(function, name), call, kind)
            }
        }
        guard !results.columns.isEmpty else {
            throw StoreError.invalidQuery("an aggregate query needs groupby, groupcount, sum, average, max or min")
        }

        var statement = SQLFragment("SELECT \(results.selected.joined(separator: ", ")) FROM \(table.quoted)")
        Self.append(where: whereClause, to: &statement)
        if !groups.isEmpty {
            statement.append(" GROUP BY \(groups.joined(separator: ", "))")
        }
        if let having = aggregation.having {
            let condition = try self.having(having, results, depth: 0)
            if !condition.isAlwaysTrue {
                statement.append(" HAVING ")
                statement.append(condition)
            }
        }
        if !query.order.isEmpty {
            var terms: [String] = []
            for key in query.order {
                guard let result = results.named(key.path) else {
                    throw StoreError.invalidQuery("order names '\(key.path)', which the aggregate does not return")
                }
                terms.append(dialect.orderTerm(result.expression, descending: key.descending))
            }
            statement.append(" ORDER BY \(terms.joined(separator: ", "))")
        }
        Self.append(limit: query.limit, skip: query.skip, to: &statement)
        try checkBoundValues(statement)
        return SQLAggregateStatement(statement: statement, columns: results.columns)
    }

    /// A `having` condition over result expressions. Values are bound; a Date compares with its `iso` text,
    /// or its day when the result is a day.
    private func having(_ condition: QueryCondition, _ results: AggregateResults, depth: Int) throws
        -> SQLFragment
    {
        guard depth <= SQLConditionCompiler<Dialect>.maximumDepth else {
            throw StoreError.invalidQuery("the query is nested too deeply")
        }
        switch condition {
        case .and(let parts):
            return .all(try parts.map { try having($0, results, depth: depth + 1) })
        case .or(let parts):
            return .any(try parts.map { try having($0, results, depth: depth + 1) })
        case .relatedTo:
            throw StoreError.invalidQuery("having cannot use $relatedTo")
        case .field(let name, let constraints):
            guard let result = results.named(name) else {
                throw StoreError.invalidQuery("having names '\(name)', which the aggregate does not return")
            }
            let expression = result.expression
            func bound(_ value: JSONValue) throws -> SQLValue {
                try havingValue(value, isDate: result.kind == .date)
            }
            var parts: [SQLFragment] = []
            for constraint in constraints {
                switch constraint {
                case .equalTo(.null):
                    parts.append(SQLFragment("\(expression) IS NULL"))
                case .equalTo(let value):
                    parts.append(SQLFragment("\(expression) = ?", [try bound(value)]))
                case .notEqualTo(let value):
                    parts.append(SQLFragment("\(expression) \(dialect.distinctOperator) ?", [try bound(value)]))
                case .lessThan(let value):
                    parts.append(SQLFragment("\(expression) < ?", [try bound(value)]))
                case .lessThanOrEqualTo(let value):
                    parts.append(SQLFragment("\(expression) <= ?", [try bound(value)]))
                case .greaterThan(let value):
                    parts.append(SQLFragment("\(expression) > ?", [try bound(value)]))
                case .greaterThanOrEqualTo(let value):
                    parts.append(SQLFragment("\(expression) >= ?", [try bound(value)]))
                case .containedIn(let values):
                    parts.append(
                        values.isEmpty ? .alwaysFalse : SQLValueMatch.membership(expression, try values.map(bound)))
                case .notContainedIn(let values):
                    parts.append(
                        values.isEmpty
                            ? .alwaysTrue : .isNotTrue(SQLValueMatch.membership(expression, try values.map(bound))))
                case .exists(let exists):
                    parts.append(SQLFragment("\(expression) \(exists ? "IS NOT NULL" : "IS NULL")"))
                default:
                    throw StoreError.invalidQuery("having supports comparisons, $in, $nin and $exists only")
                }
            }
            return .all(parts)
        }
    }

    private func havingValue(_ value: JSONValue, isDate: Bool) throws -> SQLValue {
        switch try SQLQueryValue(value, schema: nil) {
        case .null: return .null
        case .scalar(let scalar): return dialect.value(scalar)
        case .date(let iso, _): return .text(isDate ? iso : String(iso.prefix(10)))
        case .pointer, .document: throw StoreError.invalidQuery("having compares numbers, strings and dates")
        }
    }
}
