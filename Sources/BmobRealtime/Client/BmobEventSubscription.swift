package import BmobWire

/// One registered subscription: a table, an action in its subscribe form, and the row for row actions
/// (empty for table actions). Equal subscriptions are registered once.
package struct BmobEventSubscription: Sendable, Hashable {
    /// The table, system tables with their underscore (`_User`).
    package var tableName: String
    /// The row for row actions; empty for table actions.
    package var objectId: String
    /// What to watch.
    package var action: BmobEventAction

    /// A subscription; the objectId of a table action is dropped.
    ///
    /// - Parameters:
    ///   - tableName: the table.
    ///   - action: what to watch.
    ///   - objectId: the row, for row actions.
    package init(tableName: String, action: BmobEventAction, objectId: String = "") {
        self.tableName = tableName
        self.action = action
        self.objectId = action.isTableAction ? "" : objectId
    }

    /// The wire action of the subscription.
    package var wireAction: BmobRealtimeAction {
        switch action {
        case .updateTable: .updateTable
        case .deleteTable: .deleteTable
        case .updateRow: .updateRow
        case .deleteRow: .deleteRow
        }
    }

    /// The `client_sub` packet for `appKey`.
    ///
    /// - Parameter appKey: the Application ID.
    /// - Returns: the event packet.
    package func subscribePacket(appKey: String) -> SocketIOPacket {
        BmobRealtimeSubscription(appKey: appKey, tableName: tableName, objectId: objectId, action: wireAction).packet()
    }

    /// The `client_unsub` packet (with the `unsub_*` action) for `appKey`.
    ///
    /// - Parameter appKey: the Application ID.
    /// - Returns: the event packet.
    package func unsubscribePacket(appKey: String) -> SocketIOPacket {
        BmobRealtimeSubscription(
            appKey: appKey, tableName: tableName, objectId: objectId, action: wireAction.unsubscribeForm
        ).packet()
    }

    /// Whether a publication is for this subscription: same table and action, and same row for row actions.
    ///
    /// - Parameter publication: a decoded `server_pub`.
    /// - Returns: whether it matches.
    package func matches(_ publication: BmobRealtimePublication) -> Bool {
        guard publication.tableName == tableName, publication.actionName == action.rawValue else { return false }
        return action.isTableAction || publication.objectId == objectId
    }
}
