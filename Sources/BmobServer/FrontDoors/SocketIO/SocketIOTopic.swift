package import BmobWire

/// What a socket.io subscriber listens to, the socket.io door's key in its ``RealtimeHub``: an app's table
/// events (`updateTable`, `deleteTable`) or one object's row events (`updateRow`, `deleteRow`).
package struct SocketIOTopic: Sendable, Hashable {
    /// The app (`appKey` on the wire).
    package var appId: String
    package var tableName: String
    /// A subscribe-form action.
    package var action: BmobRealtimeAction
    /// The object for row actions; empty for table actions.
    package var objectId: String

    /// A topic; the objectId is dropped for table-wide actions, so `{"objectId": "x", "action": "updateTable"}`
    /// subscribes to the table.
    package init(appId: String, tableName: String, action: BmobRealtimeAction, objectId: String) {
        self.appId = appId
        self.tableName = tableName
        self.action = action
        self.objectId = action.isRowAction ? objectId : ""
    }
}
