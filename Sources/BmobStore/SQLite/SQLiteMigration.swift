/// One named, append-only change to the store's internal tables, run once per database at open.
///
/// Names are recorded in `__migrations`; a migration that shipped is never edited or removed, only
/// followed by new ones. ``builtin`` is the list every ``SQLiteStore`` runs.
package struct SQLiteMigration: Sendable {
    /// The unique name recorded once the migration has run.
    package var name: String
    /// The change, run inside the migration transaction on the writer connection.
    var apply: @Sendable (SQLiteConnection) throws -> Void

    /// A migration made of SQL text without parameters (DDL).
    package init(name: String, sql: String) {
        self.name = name
        self.apply = { connection in try connection.execute(sql) }
    }

    /// The store's migrations, in order. Append only.
    package static let builtin: [SQLiteMigration] = [
        SQLiteMigration(name: "0001-journal", sql: JournalRows.createTable),
        SQLiteMigration(name: "0002-schema-registry", sql: SchemaRows.createTable),
        SQLiteMigration(name: "0003-relations", sql: RelationRows.createTable),
        SQLiteMigration(name: "0004-indexes", sql: IndexRows.createTable),
        SQLiteMigration(name: "0005-accounts", sql: AccountRows.createTables),
        SQLiteMigration(name: "0006-class-permissions", sql: PermissionRows.createTable),
        SQLiteMigration(name: "0007-verification", sql: VerificationRows.createTables),
        SQLiteMigration(name: "0008-journal-without-autoincrement", sql: JournalRows.dropAutoincrement),
        SQLiteMigration(name: "0009-journal-door", sql: JournalRows.addDoor),
    ]
}
