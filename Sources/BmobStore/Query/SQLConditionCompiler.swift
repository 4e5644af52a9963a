import BmobWire
import BmobServerCodecs

/// Compiles a ``QueryCondition`` into a `WHERE` fragment for one class table, following the storage
/// conventions (see ``SQLQueryCompiler``), in `Dialect`'s spelling.
///
/// It also remembers the distance expression of the first `$nearSphere` of the main query (not of a
/// sub-query), which orders results when the query names no order.
struct SQLConditionCompiler<Dialect: SQLDialect> {
    /// Deepest nesting of `$and`, `$or` and sub-queries accepted.
    static var maximumDepth: Int { 32 }

    /// How the engine spells the SQL.
    let dialect: Dialect
    /// Fields by class, from the schema registry; a class missing here does not exist.
    let classes: [String: [String: FieldSchema]]
    /// The distance expression of the main query's first `$nearSphere`, if any.
    var nearestOrder: SQLFragment?
    /// The query's ACL readers (``FindQuery/readers``): sub-queries see only objects they may read too, so that a
    /// `$inQuery` cannot reveal hidden objects.
    var readers: Set<String>?

    init(dialect: Dialect, classes: [String: [String: FieldSchema]]) {
        self.dialect = dialect
        self.classes = classes
    }

    /// The `WHERE` condition for `condition` on `className` (``SQLFragment/alwaysTrue`` for none).
    mutating func compile(_ condition: QueryCondition?, className: String) throws -> SQLFragment {
        guard let condition else { return .alwaysTrue }
        return try compile(condition, Scope(className: className, fields: classes[className] ?? [:]))
    }

    mutating func compile(_ condition: QueryCondition, _ scope: Scope) throws -> SQLFragment {
        guard scope.depth <= Self.maximumDepth else { throw StoreError.invalidQuery("the query is nested too deeply") }
        switch condition {
        case .and(let parts):
            var compiled: [SQLFragment] = []
            for part in parts {
                compiled.append(try compile(part, scope.nested()))
            }
            return .all(compiled)
        case .or(let parts):
            var compiled: [SQLFragment] = []
            for part in parts {
                compiled.append(try compile(part, scope.nested()))
            }
            return .any(compiled)
        case .field(let path, let constraints):
            let fieldPath = try SQLFieldPath(path)
            var compiled: [SQLFragment] = []
            for constraint in constraints {
                compiled.append(try compile(constraint, on: fieldPath, scope))
            }
            return .all(compiled)
        case .relatedTo(let object, let key):
            return try relatedTo(object, key: key, scope)
        }
    }

    /// One operator on one field, dispatched on what the field is: a system column, a Relation, an Array,
    /// or a plain value.
    private mutating func compile(_ constraint: FieldConstraint, on path: SQLFieldPath, _ scope: Scope) throws
        -> SQLFragment
    {
        if path.isSystemColumn {
            if SQLFieldExpression.dateColumns.contains(path.field) {
                return try dateColumn(constraint, column: path.field, scope)
            }
            return try value(constraint, on: path, target: .column(path.field), schema: nil, scope)
        }
        let schema = path.schema(in: scope.fields)
        switch schema?.type {
        case .relation?:
            return try relation(constraint, key: path, scope)
        case .array?:
            return try array(constraint, on: path, scope)
        case nil:
            // `$all` only means something for arrays; an unrecorded field is treated as one.
            if case .containsAll = constraint { return try array(constraint, on: path, scope) }
            return try value(constraint, on: path, target: .field(path), schema: nil, scope)
        default:
            return try value(constraint, on: path, target: .field(path), schema: schema, scope)
        }
    }

    /// An operator on a value compared as a whole: a plain field, a typed value (Date, Pointer, GeoPoint,
    /// File, object), or `objectId`.
    private mutating func value(
        _ constraint: FieldConstraint,
        on path: SQLFieldPath,
        target: SQLValueTarget,
        schema: FieldSchema?,
        _ scope: Scope
    ) throws -> SQLFragment {
        switch constraint {
        case .equalTo(let value):
            return try SQLValueMatch.equals(target, queryValue(value, schema), dialect)
        case .notEqualTo(let value):
            return try SQLValueMatch.notEquals(target, queryValue(value, schema), dialect)
        case .lessThan(let value):
            return try SQLValueMatch.compare(target, "<", queryValue(value, schema), dialect)
        case .lessThanOrEqualTo(let value):
            return try SQLValueMatch.compare(target, "<=", queryValue(value, schema), dialect)
        case .greaterThan(let value):
            return try SQLValueMatch.compare(target, ">", queryValue(value, schema), dialect)
        case .greaterThanOrEqualTo(let value):
            return try SQLValueMatch.compare(target, ">=", queryValue(value, schema), dialect)
        case .containedIn(let values):
            return try SQLValueMatch.oneOf(target, values.map { try queryValue($0, schema) }, dialect)
        case .notContainedIn(let values):
            return .isNotTrue(try SQLValueMatch.oneOf(target, values.map { try queryValue($0, schema) }, dialect))
        case .containsAll(let values):
            guard !values.isEmpty else { return .alwaysFalse }
            return .all(try values.map { try SQLValueMatch.equals(target, queryValue($0, schema), dialect) })
        case .exists(let exists):
            guard case .field = target else { return exists ? .alwaysTrue : .alwaysFalse }
            return SQLFragment("\(dialect.fieldType(path)) \(exists ? "IS NOT NULL" : "IS NULL")")
        case .matchesRegex(let pattern, let options):
            return try regex(pattern: pattern, options: options, subject: target.whole(dialect))
        case .matchesKeyInQuery(let key, let query):
            let (outer, kind) = keyOperand(target, path: path, schema: schema)
            return try keyInQuery(outer, kind: kind, key: key, query, scope) ?? .alwaysFalse
        case .doesNotMatchKeyInQuery(let key, let query):
            let (outer, kind) = keyOperand(target, path: path, schema: schema)
            guard let match = try keyInQuery(outer, kind: kind, key: key, query, scope) else { return .alwaysTrue }
            return .isNotTrue(match)
        case .matchesQuery(let query):
            return try pointerInQuery(target, query, scope) ?? .alwaysFalse
        case .doesNotMatchQuery(let query):
            return .isNotTrue(try pointerInQuery(target, query, scope) ?? .alwaysFalse)
        case .nearSphere(let point, let maxDistance):
            guard case .field(let field) = target else {
                throw StoreError.invalidQuery("$nearSphere needs a GeoPoint field")
            }
            return try near(field, point, maxDistanceRadians: maxDistance, scope)
        case .withinBox(let southwest, let northeast):
            guard case .field(let field) = target else {
                throw StoreError.invalidQuery("$within needs a GeoPoint field")
            }
            return try box(field, southwest: southwest, northeast: northeast)
        }
    }

    /// The expression a `$select` compares with the sub-query's key: a column, a field's comparable form
    /// (`iso` of a Date, `objectId` of a Pointer), or an array element.
    /// What a `$select` or `$dontSelect` compares of `target`, and its kind.
    private func keyOperand(
        _ target: SQLValueTarget, path: SQLFieldPath, schema: FieldSchema?
    ) -> (String, SQLOperandKind) {
        switch target {
        case .field: return (dialect.comparable(path, schema: schema), dialect.comparableKind(path, schema: schema))
        case .column(let name): return (name, .text)
        case .element: return (dialect.elementValue, .value)
        }
    }

    /// A query value classified for comparison.
    func queryValue(_ value: JSONValue, _ schema: FieldSchema? = nil) throws(StoreError) -> SQLQueryValue {
        try SQLQueryValue(value, schema: schema)
    }

    /// `expression IN (sub-select)`.
    static func isIn(_ expression: String, _ select: SQLFragment) -> SQLFragment {
        SQLFragment("\(expression) IN (\(select.sql))", select.arguments)
    }

    /// The dialect's `$regex` test (``SQLDialect/regexMatch(pattern:options:subject:)``), after checking the
    /// pattern compiles.
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` (Bmob 102) for a pattern ``BoundedRegex`` rejects.
    func regex(pattern: String, options: String, subject: String) throws(StoreError) -> SQLFragment {
        do {
            _ = try BoundedRegex(pattern: pattern, options: options)
        } catch {
            // The engine's explanation names the construct and its offset, never the text: safe to show.
            throw StoreError.invalidQuery("invalid $regex: \(String(describing: error))", underlying: error)
        }
        return dialect.regexMatch(pattern: pattern, options: options, subject: subject)
    }
}
