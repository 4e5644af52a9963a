/// The fields every class has as columns of its table rather than inside its `data` document. How a field is
/// spelled in SQL is the dialect's (``SQLDialect/field(_:member:)``, ``SQLDialect/comparable(_:schema:)``), shared
/// by queries and index creation.
package enum SQLFieldExpression {
    /// Fields stored as columns rather than in `data`.
    package static let systemColumns: Set<String> = ["objectId", "createdAt", "updatedAt"]
    /// System columns that hold milliseconds since 1970 UTC.
    package static let dateColumns: Set<String> = ["createdAt", "updatedAt"]
}
