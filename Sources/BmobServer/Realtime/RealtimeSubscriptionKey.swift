package import BmobWire

/// What a subscriber listens to: a table's `updateTable`/`deleteTable`, or one object's
/// `updateRow`/`deleteRow` (table events ignore the objectId).
package struct RealtimeSubscriptionKey: Sendable, Hashable {
    package var tableName: String
    package var action: BmobRealtimeAction
    package var objectId: String

    /// A key; the objectId is dropped for table-wide actions, so `{"objectId": "x", "action": "updateTable"}`
    /// subscribes to the table.
    package init(tableName: String, action: BmobRealtimeAction, objectId: String) {
        self.tableName = tableName
        self.action = action
        self.objectId = action.isRowAction ? objectId : ""
    }
}
