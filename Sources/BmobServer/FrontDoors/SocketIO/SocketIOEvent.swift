import BmobStore
package import BmobWire

/// One socket.io event a committed change produces, before it is matched to subscribers: the table, the
/// action, the object's id (empty for table-wide events) and the object as stored (the last known object for
/// deletions; none when a table is dropped).
package struct SocketIOEvent: Sendable, Equatable {
    package var tableName: String
    package var action: BmobRealtimeAction
    package var objectId: String
    /// The object as the stored JSON (``StoredObject/json``), for rendering and the ACL check.
    package var object: JSONValue?

    /// An event with these parts.
    package init(tableName: String, action: BmobRealtimeAction, objectId: String, object: JSONValue?) {
        self.tableName = tableName
        self.action = action
        self.objectId = objectId
        self.object = object
    }

    /// The events of a change: a create is `updateTable`; an update is `updateTable` and `updateRow`; a delete
    /// is `deleteRow` (with the last known object); dropping a class is `deleteTable`; other operations none.
    package static func events(of change: RealtimeChange) -> [SocketIOEvent] {
        let id = change.objectId ?? ""
        let table = change.className
        switch change.op {
        case .create:
            return [SocketIOEvent(tableName: table, action: .updateTable, objectId: id, object: change.after)]
        case .update:
            return [
                SocketIOEvent(tableName: table, action: .updateTable, objectId: id, object: change.after),
                SocketIOEvent(tableName: table, action: .updateRow, objectId: id, object: change.after),
            ]
        case .delete:
            return [SocketIOEvent(tableName: table, action: .deleteRow, objectId: id, object: change.before)]
        case .dropClass:
            return [SocketIOEvent(tableName: table, action: .deleteTable, objectId: "", object: nil)]
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

    /// The topic subscribers of `appId` register under.
    package func topic(appId: String) -> SocketIOTopic {
        SocketIOTopic(appId: appId, tableName: tableName, action: action, objectId: objectId)
    }
}
