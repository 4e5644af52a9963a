package import BmobWire

/// SQLite's spelling of the query compiler's statements: JSON through the JSON1 functions (`json_extract`,
/// `json_type`, `json_each`), `$regex` and `$nearSphere` through the store's own functions (`bmob_regexp`,
/// `bmob_distance`, see ``SQLiteFunctions``), `?` parameters.
///
/// A field `score` is `json_extract(data, '$.score')`, a member of it `json_extract(data, '$.score.iso')`, and an
/// array index a bracket (`$.list[0].name`). SQLite's planner recognises a declared expression index by the
/// expression's structure, and the structure only matches when query and index were both spelled here.
package struct SQLiteDialect: SQLDialect {
    /// Makes the dialect.
    package init() {}

    /// SQLite's default `SQLITE_MAX_VARIABLE_NUMBER`.
    package var maximumBoundValues: Int { 32_766 }

    /// `json_extract(data, '$.<path>')`, or `json_extract(data, '$.<path>.<member>')`.
    package func field(_ path: SQLFieldPath, member: String?) -> String {
        "json_extract(data, '\(Self.jsonPath(path, member: member))')"
    }

    /// `json_type(data, '$.<path>')`: NULL when the field is missing, `'null'` for a JSON null.
    package func fieldType(_ path: SQLFieldPath) -> String {
        "json_type(data, '\(Self.jsonPath(path, member: nil))')"
    }

    /// `EXISTS (SELECT 1 FROM json_each(data, '$.<path>') WHERE <condition>)`; `data` is the enclosing
    /// table's, since `json_each` has no column of that name.
    package func someElement(of path: SQLFieldPath, where condition: SQLFragment?) -> SQLFragment {
        var fragment = SQLFragment("EXISTS (SELECT 1 FROM json_each(data, '\(Self.jsonPath(path, member: nil))')")
        if let condition {
            fragment.append(" WHERE ")
            fragment.append(condition)
        }
        fragment.append(")")
        return fragment
    }

    /// `json_each`'s `value` column.
    package var elementValue: String { "value" }

    /// `json_extract(value, '$.<name>')`.
    package func elementMember(_ name: String) -> String {
        "json_extract(value, '$.\(name)')"
    }

    /// `json_each`'s `type` column: `'text'` for strings.
    package var elementIsString: String { "type = 'text'" }

    /// `(acl IS NULL OR EXISTS (SELECT 1 FROM json_each(acl) WHERE key IN (?, …) AND json_extract(value,
    /// '$.read') = 1))`.
    package func aclAllowsRead(by readers: [String]) -> SQLFragment {
        SQLFragment(
            "(acl IS NULL OR EXISTS (SELECT 1 FROM json_each(acl) WHERE key IN (\(SQLFragment.placeholders(readers.count))) "
                + "AND json_extract(value, '$.read') = 1))",
            readers.map { .text($0) })
    }

    /// `bmob_regexp(?, ?, <subject>)`.
    package func regexMatch(pattern: String, options: String, subject: String) -> SQLFragment {
        SQLFragment("bmob_regexp(?, ?, \(subject))", [.text(pattern), .text(options)])
    }

    /// `bmob_distance(?, ?, <latitude>, <longitude>)`.
    package func distance(from point: GeoPointValue, latitude: String, longitude: String) -> SQLFragment {
        SQLFragment("bmob_distance(?, ?, \(latitude), \(longitude))", [.real(point.latitude), .real(point.longitude)])
    }

    /// `date(<column> / 1000, 'unixepoch')`.
    package func day(ofMilliseconds column: String) -> String {
        "date(\(column) / 1000, 'unixepoch')"
    }

    /// The plain SQL value, booleans as 1 and 0, which is how `json_extract` reads `true` and `false`.
    package func value(_ scalar: JSONValue) -> SQLValue {
        SQLValueTarget.plain(scalar)
    }

    /// `<value> IS NULL`: `json_extract` reads JSON null as NULL.
    package func isNull(_ value: String) -> String {
        "\(value) IS NULL"
    }

    /// `<value> IS NOT NULL`.
    package func isNotNull(_ value: String) -> String {
        "\(value) IS NOT NULL"
    }

    /// `IS NOT`.
    package var distinctOperator: String { "IS NOT" }

    /// `<value> <operation> ?`, in SQLite's order of types (numbers before text).
    package func compare(_ value: String, _ operation: String, _ scalar: JSONValue) -> SQLFragment {
        SQLFragment("\(value) \(operation) ?", [SQLValueTarget.plain(scalar)])
    }

    /// `<expression>` or `<expression> DESC`: SQLite sorts NULL first ascending already.
    package func orderTerm(_ expression: String, descending: Bool) -> String {
        descending ? "\(expression) DESC" : expression
    }

    /// None: SQLite's planner prefers an index for a range over an indexed expression without statistics.
    package func indexStatistics(name: String, table: String, valueExpressions: [String]) -> [String] {
        []
    }

    /// None: there are no statistics to drop.
    package func dropIndexStatistics(name: String) -> [String] {
        []
    }

    /// The expression itself: SQLite's indexes put NULL first already.
    package func indexTerm(_ expression: String) -> String {
        expression
    }

    /// The value itself: SQLite's `sum` skips text, and `max`/`min` compare what they get.
    package func number(_ value: String) -> String {
        value
    }

    /// As it is: SQLite compares a text member with a field's value directly.
    package func keyOperand(_ expression: String, kind: SQLOperandKind, otherKind: SQLOperandKind) -> String {
        expression
    }

    /// SQLite takes `?` as it is.
    package func statementText(_ sql: String) -> String {
        sql
    }

    /// The SQLite JSON path `$.a.b` or `$.a[0].b`, optionally followed by a member of the value (`iso`).
    static func jsonPath(_ path: SQLFieldPath, member: String?) -> String {
        var text = "$"
        for component in path.components {
            if SQLFieldPath.isIndex(component) {
                text += "[\(component)]"
            } else {
                text += ".\(component)"
            }
        }
        if let member { text += ".\(member)" }
        return text
    }
}
