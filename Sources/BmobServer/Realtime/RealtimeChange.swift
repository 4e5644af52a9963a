package import BmobStore
package import BmobWire

/// One event a committed change produces, before it is matched to subscribers: the table, the action, the
/// object's id (empty for table-wide events) and the object as clients see it (the last known object for
/// deletions; none when a table is dropped).
package struct RealtimeChange: Sendable, Equatable {
    package var tableName: String
    package var action: BmobRealtimeAction
    package var objectId: String
    /// The object as the stored JSON (``StoredObject/json``), for rendering and the ACL check.
    package var object: JSONValue?

    package init(tableName: String, action: BmobRealtimeAction, objectId: String, object: JSONValue?) {
        self.tableName = tableName
        self.action = action
        self.objectId = objectId
        self.object = object
    }

    /// The events of a journal entry: a create is `updateTable`; an update is `updateTable` and `updateRow`; a
    /// delete is `deleteRow` (with the last known object); dropping a class is `deleteTable`.
    package static func changes(of entry: JournalEntry) -> [RealtimeChange] {
        let id = entry.objectId ?? ""
        switch entry.op {
        case .create:
            return [RealtimeChange(tableName: entry.className, action: .updateTable, objectId: id, object: entry.after)]
        case .update:
            return [
                RealtimeChange(tableName: entry.className, action: .updateTable, objectId: id, object: entry.after),
                RealtimeChange(tableName: entry.className, action: .updateRow, objectId: id, object: entry.after),
            ]
        case .delete:
            return [RealtimeChange(tableName: entry.className, action: .deleteRow, objectId: id, object: entry.before)]
        case .dropClass:
            return [RealtimeChange(tableName: entry.className, action: .deleteTable, objectId: "", object: nil)]
        default:
            return []
        }
    }

    /// Whether an anonymous subscriber may receive it. socket.io subscribers carry no session, so only what
    /// the public may read goes out: the object's ACL must let `*` read (or be absent), and the class's
    /// permissions must let anyone `find` (table events) or `get` (row events). With `ignoringACL` (the app
    /// setting that restores Bmob cloud's behaviour, where events ignore ACLs) only class permissions apply.
    package func isVisibleToPublic(permissions: ClassPermissions?, ignoringACL: Bool) -> Bool {
        if let permissions, !permissions.allows(action.requiredOperation, .anonymous) { return false }
        if ignoringACL { return true }
        return AccessScope.anonymous.canRead(object?["ACL"])
    }

    /// The key subscribers register under.
    package var subscriptionKey: RealtimeSubscriptionKey {
        RealtimeSubscriptionKey(tableName: tableName, action: action, objectId: action.isRowAction ? objectId : "")
    }
}
