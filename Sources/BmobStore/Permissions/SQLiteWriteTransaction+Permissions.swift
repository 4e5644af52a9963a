import BmobWire

extension SQLiteWriteTransaction {
    func classPermissions(className: String) throws -> JSONValue? {
        checkActive()
        return catalog.permissions[className]
    }

    func setClassPermissions(className: String, permissions: JSONValue?) throws {
        checkActive()
        try SQLitePermissionRows.set(connection, className: className, permissions: permissions)
        catalog.permissions[className] = permissions
    }
}
