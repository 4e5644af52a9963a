/// What a Bmob realtime subscription watches, and the `unsub_*` forms that cancel one.
///
/// Table actions watch every row of a table (`updateTable` fires on insert and update); row actions watch one
/// object. Publications carry one of the four subscribe forms. Older JavaScript builds send the `unsub_*`
/// forms under the `client_sub` event, so any `unsub_*` action is an unsubscription whatever the event name.
package enum BmobRealtimeAction: String, Sendable, Hashable, CaseIterable {
    /// A row of the table was inserted or updated.
    case updateTable
    /// The watched row was updated.
    case updateRow
    /// The table was deleted.
    case deleteTable
    /// The watched row was deleted.
    case deleteRow
    /// Cancels ``updateTable``.
    case unsubscribeUpdateTable = "unsub_updateTable"
    /// Cancels ``updateRow``.
    case unsubscribeUpdateRow = "unsub_updateRow"
    /// Cancels ``deleteTable``.
    case unsubscribeDeleteTable = "unsub_deleteTable"
    /// Cancels ``deleteRow``.
    case unsubscribeDeleteRow = "unsub_deleteRow"

    /// Whether this is one of the `unsub_*` forms.
    package var isUnsubscribe: Bool {
        switch self {
        case .updateTable, .updateRow, .deleteTable, .deleteRow: false
        case .unsubscribeUpdateTable, .unsubscribeUpdateRow, .unsubscribeDeleteTable, .unsubscribeDeleteRow: true
        }
    }

    /// The subscribe form: the action itself, or the one an `unsub_*` action cancels.
    package var subscribeForm: BmobRealtimeAction {
        switch self {
        case .updateTable, .unsubscribeUpdateTable: .updateTable
        case .updateRow, .unsubscribeUpdateRow: .updateRow
        case .deleteTable, .unsubscribeDeleteTable: .deleteTable
        case .deleteRow, .unsubscribeDeleteRow: .deleteRow
        }
    }

    /// The `unsub_*` form that cancels this action's subscription.
    package var unsubscribeForm: BmobRealtimeAction {
        switch subscribeForm {
        case .updateTable: .unsubscribeUpdateTable
        case .updateRow: .unsubscribeUpdateRow
        case .deleteTable: .unsubscribeDeleteTable
        default: .unsubscribeDeleteRow
        }
    }

    /// Whether the action watches one row, so its subscription needs an objectId.
    package var isRowAction: Bool { subscribeForm == .updateRow || subscribeForm == .deleteRow }
}
