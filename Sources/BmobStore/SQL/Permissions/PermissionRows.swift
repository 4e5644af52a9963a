import BmobWire

/// The SQL for `__class_permission`: one row per class that has class-level permissions, the permissions as
/// JSON (`{"get":{"*":true},"create":{"role:Admin":true},…}`). Loaded into the schema catalog, so checking
/// them costs no query.
enum PermissionRows {
    static let createTable = """
        CREATE TABLE "__class_permission" (
            className TEXT PRIMARY KEY NOT NULL,
            permissions TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    static func set(_ connection: some SQLStoreConnection, className: String, permissions: JSONValue?) throws {
        guard let permissions else {
            try connection.run(#"DELETE FROM "__class_permission" WHERE className = ?"#, [.text(className)])
            return
        }
        try connection.run(
            #"INSERT INTO "__class_permission" (className, permissions) VALUES (?, ?) "#
                + "ON CONFLICT (className) DO UPDATE SET permissions = excluded.permissions",
            [.text(className), .text(permissions.jsonString)])
    }

    /// Every class's permissions.
    static func load(_ connection: some SQLStoreConnection) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        let rows = try connection.rows(#"SELECT className, permissions FROM "__class_permission""#) { row in
            (row.text(0) ?? "", row.text(1) ?? "")
        }
        for (className, text) in rows {
            guard let value = try? JSONParser.parse(text) else {
                throw StoreError(.corrupt, "the class permissions of \(className) are not JSON")
            }
            result[className] = value
        }
        return result
    }
}
