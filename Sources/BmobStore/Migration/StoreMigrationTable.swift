/// One table that ``StoreMigration`` copies page by page: its name, its columns as both engines spell them, and
/// the columns of its primary key, by which pages are read in order and duplicates are skipped.
struct StoreMigrationTable: Sendable {
    /// The table's name, unquoted (class names and `__`-prefixed internal names hold no quote).
    var name: String
    /// The columns, spelled for SQL on both engines (unquoted names fold alike; `before`/`after` are quoted).
    var columns: [String]
    /// The primary key's columns, each one of ``columns``.
    var key: [String]

    /// The name as a quoted identifier.
    var quoted: String { "\"\(name)\"" }

    /// Positions of the key's columns in ``columns``.
    var keyPositions: [Int] { key.map { column in columns.firstIndex(of: column)! } }

    /// A class table: objects with their dates, ACL and data.
    static func classTable(_ name: String) -> StoreMigrationTable {
        StoreMigrationTable(
            name: name, columns: ["objectId", "createdAt", "updatedAt", "acl", "data"], key: ["objectId"])
    }

    /// The schema registry.
    static let schema = StoreMigrationTable(
        name: "__schema", columns: ["className", "fieldName", "type", "targetClass"], key: ["className", "fieldName"])

    /// Class permissions.
    static let classPermission = StoreMigrationTable(
        name: "__class_permission", columns: ["className", "permissions"], key: ["className"])

    /// Relation members.
    static let relation = StoreMigrationTable(
        name: "__relation", columns: ["className", "objectId", "key", "targetClassName", "targetObjectId"],
        key: ["className", "objectId", "key", "targetObjectId"])

    /// Password hashes.
    static let credential = StoreMigrationTable(name: "__credential", columns: ["userId", "hash"], key: ["userId"])

    /// Session token hashes.
    static let session = StoreMigrationTable(
        name: "__session", columns: ["tokenHash", "userId", "createdAt", "expiresAt"], key: ["tokenHash"])

    /// SMS codes, with their ids (PostgreSQL's identity sequence is moved past them afterwards).
    static let smsCode = StoreMigrationTable(
        name: "__sms_code",
        columns: ["smsId", "phone", "code", "template", "createdAt", "expiresAt", "usedAt", "failedAttempts", "delivery"],
        key: ["smsId"])

    /// Email verification and password reset tokens.
    static let emailToken = StoreMigrationTable(
        name: "__email_token", columns: ["tokenHash", "purpose", "userId", "email", "createdAt", "expiresAt"],
        key: ["tokenHash"])

    /// The journal, with its `seq`s.
    static let journal = StoreMigrationTable(
        name: "__journal",
        columns: ["seq", "className", "objectId", "op", "\"before\"", "\"after\"", "caller", "door", "time"],
        key: ["seq"])
}
