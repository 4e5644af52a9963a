public import BmobCore

/// What a ``BmobHistoryClient`` reports, for code written around delegates (UIKit view controllers and the
/// like). Every method is called on the client's callback queue (the main queue unless another was given),
/// and every method has an empty default, so implement only those you need.
///
/// ```swift
/// final class ChangesViewController: UIViewController, BmobHistoryDelegate {
///     lazy var history = BmobHistoryClient(delegate: self)
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         history.connect()
///         history.getChanges(className: "Note", objectId: noteId)
///     }
///
///     nonisolated func bmobHistory(_ client: BmobHistoryClient, didReceiveChanges changes: [BmobChange]) {
///         MainActor.assumeIsolated { self.show(changes) }
///     }
/// }
/// ```
///
/// The protocol is not isolated to an actor, because the queue can be changed; a main-actor type implements
/// the methods `nonisolated` and, with the default queue, may use `MainActor.assumeIsolated`.
public protocol BmobHistoryDelegate: AnyObject {
    /// Answers ``BmobHistoryClient/connect()``: whether the server offers history (its
    /// ``BmobServerInfo/capabilities`` list `history`). `false` too when the server could not be asked; the
    /// error follows in ``bmobHistory(_:didFailWithError:)``.
    func bmobHistory(_ client: BmobHistoryClient, serverIsValid: Bool)

    /// Answers ``BmobHistoryClient/getChanges(className:objectId:since:until:userId:)``: the changes, newest
    /// first.
    func bmobHistory(_ client: BmobHistoryClient, didReceiveChanges changes: [BmobChange])

    /// Answers ``BmobHistoryClient/getDeletedObjects(className:)``: one delete change per deleted object.
    func bmobHistory(_ client: BmobHistoryClient, didReceiveDeletedObjects changes: [BmobChange])

    /// Answers ``BmobHistoryClient/revert(_:)``: the object as the server has it after the revert.
    func bmobHistory(_ client: BmobHistoryClient, didRevert object: BmobObject, toBefore change: BmobChange)

    /// Answers ``BmobHistoryClient/restore(_:)``: the object brought back.
    func bmobHistory(_ client: BmobHistoryClient, didRestore object: BmobObject, from change: BmobChange)

    /// A request failed; the error is the ``BmobError`` the async API would have thrown.
    func bmobHistory(_ client: BmobHistoryClient, didFailWithError error: BmobError)
}

extension BmobHistoryDelegate {
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, serverIsValid: Bool) {}
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, didReceiveChanges changes: [BmobChange]) {}
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, didReceiveDeletedObjects changes: [BmobChange]) {}
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, didRevert object: BmobObject, toBefore change: BmobChange) {}
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, didRestore object: BmobObject, from change: BmobChange) {}
    /// Does nothing.
    public func bmobHistory(_ client: BmobHistoryClient, didFailWithError error: BmobError) {}
}
