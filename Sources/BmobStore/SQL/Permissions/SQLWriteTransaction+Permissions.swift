import BmobWire

extension SQLWriteTransaction {
    func classPermissions(className: String) throws -> JSONValue? {
        checkActive()
        return catalog.permissions[className]
    }

    func setClassPermissions(className: String, permissions: JSONValue?) throws {
        checkActive()
        // Permissions may be set before the class exists; its creation then journals them with its schema.
        let before = catalog.contains(className) ? try classSchema(className) : nil
        try PermissionRows.set(connection, className: className, permissions: permissions)
        catalog.permissions[className] = permissions
        if let before, before.permissions != permissions { try journalSchema(className, before: before) }
    }
}
