import BmobWire

extension SQLReadTransaction {
    func classPermissions(className: String) throws -> JSONValue? {
        try checkUsable()
        return catalog.permissions[className]
    }
}
