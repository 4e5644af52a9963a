/// What a ``BmobEvent`` subscription watches.
///
/// Table actions go with ``BmobEvent/listenTableChange(_:tableName:)``, row actions with
/// ``BmobEvent/listenRowChange(_:tableName:objectId:)``:
///
/// ```swift
/// event.listenTableChange(.updateTable, tableName: "Post")   // a row was created or updated
/// event.listenTableChange(.deleteTable, tableName: "Post")   // the table was deleted
/// event.listenRowChange(.updateRow, tableName: "Post", objectId: "row-id")
/// event.listenRowChange(.deleteRow, tableName: "Post", objectId: "row-id")
/// ```
public enum BmobEventAction: String, Sendable, Hashable, CaseIterable {
    /// A row of the table was created or updated.
    case updateTable
    /// The table was deleted.
    case deleteTable
    /// The watched row was updated.
    case updateRow
    /// The watched row was deleted.
    case deleteRow

    /// Whether the action watches a whole table (``updateTable``, ``deleteTable``).
    public var isTableAction: Bool { self == .updateTable || self == .deleteTable }
}
