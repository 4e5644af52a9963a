import BmobWire

/// The SQL for the `__schema` table, the persistent side of the schema registry: one row per field.
enum SchemaRows {
    static let createTable = """
        CREATE TABLE "__schema" (
            className TEXT NOT NULL,
            fieldName TEXT NOT NULL,
            type TEXT NOT NULL,
            targetClass TEXT,
            PRIMARY KEY (className, fieldName)
        ) WITHOUT ROWID
        """

    private static let table = SQLTableName.schema.quoted

    static func insert(_ connection: some SQLStoreConnection, className: String, field: String, schema: FieldSchema) throws {
        try connection.run(
            "INSERT INTO \(table) (className, fieldName, type, targetClass) VALUES (?, ?, ?, ?)",
            [.text(className), .text(field), .text(schema.type.rawValue), SQLValue(schema.targetClass)])
    }

    static func deleteField(_ connection: some SQLStoreConnection, className: String, field: String) throws {
        try connection.run("DELETE FROM \(table) WHERE className = ? AND fieldName = ?", [.text(className), .text(field)])
    }

    static func deleteClass(_ connection: some SQLStoreConnection, className: String) throws {
        try connection.run("DELETE FROM \(table) WHERE className = ?", [.text(className)])
    }

    /// Reads the catalog: every class table, with the fields recorded for it.
    static func loadCatalog(_ connection: some SQLStoreConnection) throws -> SchemaCatalog {
        var catalog = SchemaCatalog()
        for name in try connection.classTableNames() {
            catalog.classes[name] = [:]
        }
        let rows = try connection.rows("SELECT className, fieldName, type, targetClass FROM \(table)") { row in
            (row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "", row.text(3))
        }
        for (className, field, typeName, targetClass) in rows where catalog.contains(className) {
            guard let type = BmobFieldType(rawValue: typeName) else {
                throw StoreError(.corrupt, "the schema registry holds an unknown field type")
            }
            catalog.classes[className, default: [:]][field] = FieldSchema(type: type, targetClass: targetClass)
        }
        catalog.permissions = try PermissionRows.load(connection)
        return catalog
    }
}
