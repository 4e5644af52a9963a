package import BmobWire

extension SQLDialect {
    /// A field itself.
    func field(_ path: SQLFieldPath) -> String {
        field(path, member: nil)
    }

    /// The expression a field compares, orders and is indexed by: the column for `objectId`, `createdAt`
    /// and `updatedAt`; the `iso` text of a Date field (normalised UTC text orders as time does); the
    /// `objectId` of a Pointer field; the value itself for everything else.
    package func comparable(_ path: SQLFieldPath, schema: FieldSchema?) -> String {
        if path.isSystemColumn { return path.field }
        switch schema?.type {
        case .date?: return field(path, member: "iso")
        case .pointer?: return field(path, member: "objectId")
        default: return field(path, member: nil)
        }
    }

    /// What ``comparable(_:schema:)`` reads: a column (`objectId` text, `createdAt` and `updatedAt`
    /// milliseconds), a text member (a Date's `iso`, a Pointer's `objectId`), or the field's value.
    func comparableKind(_ path: SQLFieldPath, schema: FieldSchema?) -> SQLOperandKind {
        if path.isSystemColumn { return path.field == "objectId" ? .text : .milliseconds }
        switch schema?.type {
        case .date?, .pointer?: return .text
        default: return .value
        }
    }

    /// The ACL check of a query with ``FindQuery/readers``: no ACL, or an ACL entry of one of the readers with
    /// `"read": true` (``aclAllowsRead(by:)``).
    func readable(by readers: Set<String>) -> SQLFragment {
        let names = readers.sorted()
        guard !names.isEmpty else { return SQLFragment("(acl IS NULL)") }
        return aclAllowsRead(by: names)
    }
}
