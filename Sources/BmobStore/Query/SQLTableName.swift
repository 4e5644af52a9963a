import BmobWire

/// A table name that is safe to put in SQL text: a valid Bmob class name or one of the store's own tables.
///
/// The only way to make one validates the name, so a quoted identifier can never carry SQL. The rules are the
/// same on every engine, so that an app's data can move from one engine to another.
struct SQLTableName: Hashable, Sendable {
    /// The unquoted name.
    let name: String

    private init(trusted name: String) {
        self.name = name
    }

    /// The table of a Bmob class; throws ``StoreError/Code/invalidClassName`` before any SQL is built.
    init(className: String) throws(StoreError) {
        guard Self.isClassTable(className) else {
            var error = StoreError(.invalidClassName, "invalid class name", fileID: nil, line: nil)
            error.detail = "class name: \(className)"
            throw error
        }
        self.init(trusted: className)
    }

    /// Whether `name` can be a class table: a valid Bmob class name that no engine reserves (`sqlite_…` in any
    /// case passes Bmob's rules, but SQLite keeps such tables for itself).
    static func isClassTable(_ name: String) -> Bool {
        BmobName.isValidClassName(name) && !hasReservedPrefix(name)
    }

    /// Whether `name` starts with `sqlite_` in any letter case (SQLite reserves those table names).
    private static func hasReservedPrefix(_ name: String) -> Bool {
        let prefix = "sqlite_".utf8
        let bytes = name.utf8
        guard bytes.count >= prefix.count else { return false }
        // ASCII lower-casing by setting bit 5 is exact for letters and leaves `_` (0x5F) as 0x7F, so compare
        // the underscore as it is.
        return zip(bytes, prefix).allSatisfy { byte, expected in
            expected == UInt8(ascii: "_") ? byte == expected : byte | 0x20 == expected
        }
    }

    /// The identifier in double quotes. Valid names hold only letters, digits and underscores.
    var quoted: String { "\"\(name)\"" }

    // Internal tables start with two underscores, which no Bmob class name can (they start with a letter,
    // or are one of the four `_`-prefixed system classes), so they never clash and never list as classes.

    /// The journal: one row per change, appended in the transaction of the change.
    static let journal = SQLTableName(trusted: "__journal")
    /// The schema registry: one row per recorded field.
    static let schema = SQLTableName(trusted: "__schema")
    /// Applied migrations, by name.
    static let migrations = SQLTableName(trusted: "__migrations")
    /// Relation members: one row per (owner object, relation key, target object).
    static let relation = SQLTableName(trusted: "__relation")
    /// Declared expression indexes: their class, index name, field paths and uniqueness.
    static let indexes = SQLTableName(trusted: "__index")

    /// The table of a class the schema catalog holds (validated when it was created).
    static func cataloged(_ className: String) -> SQLTableName {
        SQLTableName(trusted: className)
    }

    /// An index name made by the store (`__index_…`); starts with `__`, so it never names a class.
    static func index(trusted name: String) -> SQLTableName {
        SQLTableName(trusted: name)
    }
}
