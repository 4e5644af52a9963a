package import BmobWire

/// The one spelling of every field expression, shared by the query compiler and index creation, so that
/// SQLite's planner recognises a declared expression index in a query (it matches expressions by structure,
/// and the structure only matches when both were built here).
///
/// A field `score` is `json_extract(data, '$.score')`; a member of it is `json_extract(data, '$.score.iso')`;
/// the system columns `objectId`, `createdAt` and `updatedAt` are the columns themselves.
package enum SQLFieldExpression {
    /// Fields stored as columns rather than in `data`.
    package static let systemColumns: Set<String> = ["objectId", "createdAt", "updatedAt"]
    /// System columns that hold milliseconds since 1970 UTC.
    package static let dateColumns: Set<String> = ["createdAt", "updatedAt"]

    /// `json_extract(data, '$.<path>')`, or `json_extract(data, '$.<path>.<member>')`.
    package static func json(_ path: SQLFieldPath, member: String? = nil) -> String {
        "json_extract(data, '\(path.jsonPath(member: member))')"
    }

    /// `json_type(data, '$.<path>')`: NULL when the field is missing, `'null'` for a JSON null.
    package static func jsonType(_ path: SQLFieldPath) -> String {
        "json_type(data, '\(path.jsonPath())')"
    }

    /// The expression a field compares, orders and is indexed by: the column for `objectId`, `createdAt`
    /// and `updatedAt`; the `iso` text of a Date field (normalised UTC text orders as time does); the
    /// `objectId` of a Pointer field; the value itself for everything else.
    package static func comparable(_ path: SQLFieldPath, schema: FieldSchema?) -> String {
        if path.isSystemColumn { return path.field }
        switch schema?.type {
        case .date?: return json(path, member: "iso")
        case .pointer?: return json(path, member: "objectId")
        default: return json(path)
        }
    }
}
