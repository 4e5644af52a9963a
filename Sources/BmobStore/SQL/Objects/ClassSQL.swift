/// The SQL texts of one class table's row statements, remembered for the class used last.
///
/// A create, get, update or delete names its class table in the SQL text, and building that text
/// (`"INSERT INTO \"Class\" (…)"`, several appends) cost more than the statement cache lookup it feeds.
/// Requests in a row mostly touch one class, so each kind keeps the text it built last and reuses it while
/// the table name is the same; a different class builds its text again (one entry per kind, no table to
/// grow or evict).
struct ClassSQL {
    /// The row statements of a class table.
    enum Kind: Int, CaseIterable {
        case select, insert, update, delete
    }

    private var last: [(table: String, sql: String)?] = Array(repeating: nil, count: Kind.allCases.count)

    /// The text of `kind` for `table`, built by `build` (given the quoted table name) unless it was last.
    mutating func text(_ kind: Kind, for table: SQLTableName, build: (String) -> String) -> String {
        if let entry = last[kind.rawValue], entry.table == table.name { return entry.sql }
        let sql = build(table.quoted)
        last[kind.rawValue] = (table.name, sql)
        return sql
    }
}
