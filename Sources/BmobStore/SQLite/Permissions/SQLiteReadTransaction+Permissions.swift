import BmobWire

extension SQLiteReadTransaction {
    func classPermissions(className: String) throws -> JSONValue? {
        try checkUsable()
        return catalog.permissions[className]
    }
}
