/// When a trigger runs, around an operation on a class: `before…` triggers may change or refuse it, `after…`
/// triggers see its outcome, outside the write's transaction.
public enum TriggerEvent: String, Sendable, CaseIterable {
    /// Before a create or an update is written; may change the fields (by answering an object of fields to set) or
    /// refuse the write.
    case beforeSave
    /// After a create or an update committed, with the stored object.
    case afterSave
    /// Before a delete; may refuse it.
    case beforeDelete
    /// After a delete committed, with the object as it was.
    case afterDelete
    /// Before a query runs; may narrow it (by answering a `where` object that the query must also match) or
    /// refuse it.
    case beforeFind
    /// After a query ran; may replace the objects it answers (by answering an array).
    case afterFind
    /// After a user's credentials were checked, before the login is answered; may refuse it (the new session
    /// is ended).
    case beforeLogin
    /// After a login was answered.
    case afterLogin
    /// After a logout.
    case afterLogout

    /// Whether the trigger runs after the operation, detached from the request (its failures are logged).
    public var isAfter: Bool {
        switch self {
        case .afterSave, .afterDelete, .afterLogin, .afterLogout: true
        default: false
        }
    }
}
