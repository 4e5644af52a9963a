/// A row ``StoreMigration`` could not copy (PostgreSQL refuses U+0000 in `text` and `\u0000` in `jsonb`, for
/// instance), or a declared index it could not create.
package struct StoreMigrationFailure: Sendable, Equatable, CustomStringConvertible {
    /// The table the row belongs to.
    package var table: String
    /// The row's primary key (or the index's name), as text.
    package var key: String
    /// Why it failed, without the row's data.
    package var message: String

    /// The table, the key and the reason, on one line.
    package var description: String { "\(table) \(key): \(message)" }
}
