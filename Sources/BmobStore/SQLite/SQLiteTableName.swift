/// A table name that is safe to put in SQL text: a valid Bmob class name or one of the store's own tables.
///
/// The only way to make one validates the name, so a quoted identifier can never carry SQL.
struct SQLiteTableName: Hashable, Sendable {
    /// The unquoted name.
    let name: String

    private init(trusted name: String) {
        self.name = name
    }

    /// The table of a Bmob class; throws ``StoreError/Code/invalidClassName`` before any SQL is built.
    init(className: String) throws(StoreError) {
        try StoreError.validateClassName(className)
        self.init(trusted: className)
    }

    /// The identifier in double quotes. Valid names hold only letters, digits and underscores.
    var quoted: String { "\"\(name)\"" }

    /// Internal tables start with two underscores, which no Bmob class name can (they start with a letter,
    /// or are one of the four `_`-prefixed system classes).
    static let internalPrefix = "__"
    /// The journal: one row per change, appended in the transaction of the change.
    static let journal = SQLiteTableName(trusted: "__journal")
    /// The schema registry: one row per recorded field.
    static let schema = SQLiteTableName(trusted: "__schema")
    /// Applied migrations, by name.
    static let migrations = SQLiteTableName(trusted: "__migrations")
}
