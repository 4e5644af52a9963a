/// How far ``StoreMigration`` has come with one app: rows handled (copied, or found already copied) out of the rows
/// the SQLite database holds, and the table it is on.
package struct StoreMigrationProgress: Sendable, Equatable {
    /// The app being copied.
    package var applicationId: String
    /// The table being copied.
    package var table: String
    /// Rows handled so far, over every table of the app.
    package var copiedRows: Int
    /// Rows of every table of the app's SQLite database.
    package var totalRows: Int
}
