package import BmobWire
import BmobServerCodecs

/// PostgreSQL's spelling of the query compiler's statements: the `data` and `acl` columns are `jsonb`, a field is
/// read as `jsonb` (`data -> 'score'`, `data #> '{a,0,b}'`) and compared with bound JSON text, so numbers,
/// strings, booleans, objects and arrays compare as JSON values and never across types; members that hold text
/// (`iso`, `objectId`, `className`) are read as text (`data #>> '{when,iso}'`), GeoPoint coordinates as numbers.
///
/// `$regex` runs PostgreSQL's own `~` on the pattern ``BoundedRegex`` translated (``BoundedRegex/postgreSQLPattern``),
/// which answers what the store's engine answers; `$nearSphere` uses the store's `bmob_distance` SQL function and
/// sums its `bmob_number`, both created in each app's schema by the migrations. Parameters are the compiler's `?`,
/// numbered by the connection. Expression indexes are created with the same spellings, so the planner uses them.
package struct PostgresDialect: SQLDialect {
    /// Makes the dialect.
    package init() {}

    /// The extended query protocol's limit on parameters.
    package var maximumBoundValues: Int { 65_535 }

    /// `(data -> 'f')`, `(data #> '{a,b}')`; a text member `(data #>> '{f,iso}')`; a coordinate
    /// `bmob_number(data #> '{f,latitude}')`.
    package func field(_ path: SQLFieldPath, member: String?) -> String {
        guard let member else {
            if path.components.count == 1 { return "(data -> '\(path.field)')" }
            return "(data #> '\(Self.pathArray(path.components))')"
        }
        let components = path.components + [member]
        if member == "latitude" || member == "longitude" {
            return "bmob_number(data #> '\(Self.pathArray(components))')"
        }
        return "(data #>> '\(Self.pathArray(components))')"
    }

    /// `jsonb_typeof(<field>)`: NULL when missing, `'null'` for JSON null.
    package func fieldType(_ path: SQLFieldPath) -> String {
        "jsonb_typeof(\(field(path, member: nil)))"
    }

    /// `EXISTS (SELECT 1 FROM jsonb_array_elements(<array or NULL>) AS bmob_element(value) WHERE …)`.
    package func someElement(of path: SQLFieldPath, where condition: SQLFragment?) -> SQLFragment {
        let value = field(path, member: nil)
        var fragment = SQLFragment(
            "EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(\(value)) WHEN 'array' THEN \(value) END) "
                + "AS bmob_element(value)")
        if let condition {
            fragment.append(" WHERE ")
            fragment.append(condition)
        }
        fragment.append(")")
        return fragment
    }

    /// The element, `jsonb`.
    package var elementValue: String { "bmob_element.value" }

    /// `(bmob_element.value ->> '<name>')`, text.
    package func elementMember(_ name: String) -> String {
        "(bmob_element.value ->> '\(name)')"
    }

    /// `jsonb_typeof(bmob_element.value) = 'string'`.
    package var elementIsString: String { "jsonb_typeof(bmob_element.value) = 'string'" }

    /// `(acl IS NULL OR acl -> ?::text -> 'read' = 'true'::jsonb OR …)`, one term per reader: simple operators the
    /// planner estimates and a prepared statement keeps as a generic plan (a `jsonb_each` sub-plan made PostgreSQL
    /// plan every execution anew, most of an indexed query's cost).
    package func aclAllowsRead(by readers: [String]) -> SQLFragment {
        let terms = readers.map { _ in " OR acl -> ?::text -> 'read' = 'true'::jsonb" }.joined()
        return SQLFragment("(acl IS NULL\(terms))", readers.map { .text($0) })
    }

    /// `(CASE WHEN jsonb_typeof(<subject>) = 'string' THEN <subject> #>> '{}' END) ~ ?` with the translated
    /// pattern: only strings match, as on SQLite. The compiler checked that the pattern compiles.
    ///
    /// PostgreSQL's engine is an automaton too (a lazily built DFA, no backtracking: the security probe
    /// `(.*a){1000}b` answers in milliseconds on 1 MB), so there is no per-value step budget here as SQLite's
    /// ``BoundedRegex`` has; the reader's `statement_timeout` bounds the query as a whole.
    package func regexMatch(pattern: String, options: String, subject: String) -> SQLFragment {
        guard let regex = try? BoundedRegex(pattern: pattern, options: options) else { return .alwaysFalse }
        // A bare name is a text column (`objectId`); everything else the compiler passes is a `jsonb` value.
        let isColumn = subject.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter) }
        let text = isColumn ? subject : "(CASE WHEN jsonb_typeof(\(subject)) = 'string' THEN \(subject) #>> '{}' END)"
        return SQLFragment("\(text) ~ ?", [.text(regex.postgreSQLPattern)])
    }

    /// `bmob_distance(?, ?, <latitude>, <longitude>)`.
    package func distance(from point: GeoPointValue, latitude: String, longitude: String) -> SQLFragment {
        SQLFragment(
            "bmob_distance(?::float8, ?::float8, \(latitude), \(longitude))",
            [.real(point.latitude), .real(point.longitude)])
    }

    /// `to_char(to_timestamp(<column> / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.
    package func day(ofMilliseconds column: String) -> String {
        "to_char(to_timestamp(\(column) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
    }

    /// The scalar's JSON text, which PostgreSQL reads as `jsonb` beside a `jsonb` expression.
    package func value(_ scalar: JSONValue) -> SQLValue {
        .text(scalar.jsonString)
    }

    /// `(<value> IS NULL OR <value> = 'null'::jsonb)`.
    package func isNull(_ value: String) -> String {
        "(\(value) IS NULL OR \(value) = 'null'::jsonb)"
    }

    /// `<value> <> 'null'::jsonb` (NULL, a missing value, is not true either).
    package func isNotNull(_ value: String) -> String {
        "\(value) <> 'null'::jsonb"
    }

    /// `IS DISTINCT FROM`.
    package var distinctOperator: String { "IS DISTINCT FROM" }

    /// `(<value> <operation> ?::jsonb AND jsonb_typeof(<value>) = '<type>')`: `jsonb` orders across types, a
    /// query compares within its value's type only.
    package func compare(_ value: String, _ operation: String, _ scalar: JSONValue) -> SQLFragment {
        let type: String
        switch scalar {
        case .bool: type = "boolean"
        case .int, .double: type = "number"
        case .string: type = "string"
        case .array: type = "array"
        case .object: type = "object"
        case .null: type = "null"
        }
        return SQLFragment(
            "(\(value) \(operation) ?::jsonb AND jsonb_typeof(\(value)) = '\(type)')", [.text(scalar.jsonString)])
    }

    /// `<expression> ASC NULLS FIRST` or `<expression> DESC NULLS LAST`, SQLite's placement of missing values.
    package func orderTerm(_ expression: String, descending: Bool) -> String {
        descending ? "\(expression) DESC NULLS LAST" : "\(expression) ASC NULLS FIRST"
    }

    /// `<expression> NULLS FIRST`: read forwards for `ASC NULLS FIRST`, backwards for `DESC NULLS LAST` (a default
    /// index, NULLS LAST, would serve neither, and every ordered query would sort).
    package func indexTerm(_ expression: String) -> String {
        "\(expression) NULLS FIRST"
    }

    /// `CREATE STATISTICS <index name> ON (jsonb_typeof(<value>)), … FROM <table>`, then `ANALYZE <table>`: a range
    /// query's `jsonb_typeof(<value>) = 'number'` is otherwise estimated to keep 0.5% of the rows, which makes a
    /// `LIMIT` look costly and PostgreSQL plan every execution of the prepared query anew. Statistics objects
    /// have names of their own, so the index's name is free for them.
    package func indexStatistics(name: String, table: String, valueExpressions: [String]) -> [String] {
        guard !valueExpressions.isEmpty else { return [] }
        let terms = valueExpressions.map { "(jsonb_typeof(\($0)))" }.joined(separator: ", ")
        return ["CREATE STATISTICS IF NOT EXISTS \(name) ON \(terms) FROM \(table)", "ANALYZE \(table)"]
    }

    /// `DROP STATISTICS IF EXISTS <index name>`.
    package func dropIndexStatistics(name: String) -> [String] {
        ["DROP STATISTICS IF EXISTS \(name)"]
    }

    /// `bmob_number(<value>)`: the number a `jsonb` number holds, NULL for anything else.
    package func number(_ value: String) -> String {
        "bmob_number(\(value))"
    }

    /// `to_jsonb(<column or text>)` when the other side is of another kind (`jsonb = text` and `bigint = text` do
    /// not exist); as it is otherwise, so that `objectId IN (SELECT objectId …)` keeps using the primary key.
    package func keyOperand(_ expression: String, kind: SQLOperandKind, otherKind: SQLOperandKind) -> String {
        kind == otherKind || kind == .value ? expression : "to_jsonb(\(expression))"
    }

    /// The text as it is: ``PostgresConnection`` numbers the `?` markers when it prepares a statement.
    package func statementText(_ sql: String) -> String {
        sql
    }

    /// `{a,0,b}`: a text array literal of validated names and indexes, which need no quoting.
    static func pathArray(_ components: [String]) -> String {
        "{" + components.joined(separator: ",") + "}"
    }
}
