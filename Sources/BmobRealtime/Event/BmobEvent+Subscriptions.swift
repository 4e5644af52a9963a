import BmobCore
import Foundation

extension BmobEvent {
    /// Watches a table: `.updateTable` (a row was created or updated) or `.deleteTable`.
    ///
    /// Registered subscriptions are sent when the server is ready, and again after each reconnection;
    /// registering the same one twice sends it once. A row action, or an empty table name, is reported to
    /// the delegate as `BmobError.invalidParameter(reason:)` and ignored.
    ///
    /// - Parameters:
    ///   - action: `.updateTable` or `.deleteTable`.
    ///   - tableName: the table (class) name.
    public func listenTableChange(_ action: BmobEventAction, tableName: String) {
        guard let subscription = tableSubscription(action, tableName: tableName) else { return }
        handle { $0.listen(subscription) }
    }

    /// Watches one row: `.updateRow` or `.deleteRow`.
    ///
    /// A table action, or an empty table name or objectId, is reported to the delegate as
    /// `BmobError.invalidParameter(reason:)` and ignored.
    ///
    /// - Parameters:
    ///   - action: `.updateRow` or `.deleteRow`.
    ///   - tableName: the table (class) name.
    ///   - objectId: the row's id.
    public func listenRowChange(_ action: BmobEventAction, tableName: String, objectId: String) {
        guard let subscription = rowSubscription(action, tableName: tableName, objectId: objectId) else { return }
        handle { $0.listen(subscription) }
    }

    /// Watches a table for updates (`.updateTable`: rows created or updated).
    ///
    /// - Parameter className: the table (class) name.
    public func listenTableChange(className: String) {
        listenTableChange(.updateTable, tableName: className)
    }

    /// Watches one row for updates (`.updateRow`).
    ///
    /// - Parameters:
    ///   - className: the table (class) name.
    ///   - objectId: the row's id.
    public func listenRowChange(className: String, objectId: String) {
        listenRowChange(.updateRow, tableName: className, objectId: objectId)
    }

    /// Stops watching a table for `action`; the server is told at once when connected.
    ///
    /// - Parameters:
    ///   - action: `.updateTable` or `.deleteTable`, as registered.
    ///   - tableName: the table (class) name, as registered.
    public func cancelListenTableChange(_ action: BmobEventAction, tableName: String) {
        guard let subscription = tableSubscription(action, tableName: tableName) else { return }
        handle { $0.cancel(subscription) }
    }

    /// Stops watching a row for `action`; the server is told at once when connected.
    ///
    /// - Parameters:
    ///   - action: `.updateRow` or `.deleteRow`, as registered.
    ///   - tableName: the table (class) name, as registered.
    ///   - objectId: the row's id, as registered.
    public func cancelListenRowChange(_ action: BmobEventAction, tableName: String, objectId: String) {
        guard let subscription = rowSubscription(action, tableName: tableName, objectId: objectId) else { return }
        handle { $0.cancel(subscription) }
    }

    /// Stops watching a table for updates (`.updateTable` only).
    ///
    /// - Parameter className: the table (class) name.
    public func cancelListenTableChange(className: String) {
        cancelListenTableChange(.updateTable, tableName: className)
    }

    /// Stops watching a row for updates (`.updateRow` only).
    ///
    /// - Parameters:
    ///   - className: the table (class) name.
    ///   - objectId: the row's id.
    public func cancelListenRowChange(className: String, objectId: String) {
        cancelListenRowChange(.updateRow, tableName: className, objectId: objectId)
    }

    /// The subscriptions registered now, in registration order.
    package var subscriptions: [BmobEventSubscription] {
        lock.withLock { machine.subscriptions }
    }

    private func tableSubscription(_ action: BmobEventAction, tableName: String) -> BmobEventSubscription? {
        guard action.isTableAction else {
            perform(.notifyFailure(.invalidSubscription("\(action.rawValue) needs listenRowChange and an objectId")))
            return nil
        }
        guard !tableName.isEmpty else {
            perform(.notifyFailure(.invalidSubscription("tableName is empty")))
            return nil
        }
        return BmobEventSubscription(tableName: tableName, action: action)
    }

    private func rowSubscription(_ action: BmobEventAction, tableName: String, objectId: String) -> BmobEventSubscription? {
        guard !action.isTableAction else {
            perform(.notifyFailure(.invalidSubscription("\(action.rawValue) needs listenTableChange")))
            return nil
        }
        guard !tableName.isEmpty, !objectId.isEmpty else {
            perform(.notifyFailure(.invalidSubscription("tableName and objectId must not be empty")))
            return nil
        }
        return BmobEventSubscription(tableName: tableName, action: action, objectId: objectId)
    }
}
