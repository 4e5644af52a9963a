/// Why an SQLite database could not be copied or checked (``SQLiteOnlineBackup``): the file and SQLite's message.
package struct SQLiteBackupError: Error, CustomStringConvertible, Sendable {
    /// A sentence naming the file and what went wrong.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
