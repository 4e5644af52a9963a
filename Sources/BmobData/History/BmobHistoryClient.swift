import BmobCore
public import Dispatch
public import Foundation

/// The history API for delegate-style code: each method starts the async call and reports its answer to a
/// ``BmobHistoryDelegate`` on a callback queue.
///
/// ```swift
/// let history = BmobHistoryClient(delegate: self)           // answers on the main queue
/// history.connect()                                         // → bmobHistory(_:serverIsValid:)
/// history.getChanges(className: "Note", objectId: noteId)   // → bmobHistory(_:didReceiveChanges:)
/// history.revert(change)                                    // → bmobHistory(_:didRevert:toBefore:)
/// ```
///
/// The delegate is held weakly: answers arriving after it is gone are dropped. Each method returns the task
/// doing the work; it may be ignored, awaited (it ends once the answer is queued for the delegate) or
/// cancelled. Requests run concurrently and report in the order they finish.
///
/// ## Topics
///
/// ### Creating a client
/// - ``init(delegate:callbackQueue:)``
/// - ``delegate``
/// - ``callbackQueue``
///
/// ### Requests
/// - ``connect()``
/// - ``getChanges(className:objectId:since:until:userId:)``
/// - ``getDeletedObjects(className:)``
/// - ``revert(_:)``
/// - ``restore(_:)``
/// - ``serverInfo``
public final class BmobHistoryClient: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `storedDelegate` and `storedInfo` are read and written only while
    // `lock` is held (never across an `await`); the delegate itself is only called on `callbackQueue`.
    private let lock = NSLock()
    private weak var storedDelegate: (any BmobHistoryDelegate)?
    private var storedInfo: BmobServerInfo?

    /// The queue every delegate method is called on.
    public let callbackQueue: DispatchQueue

    /// A client reporting to `delegate`.
    ///
    /// - Parameters:
    ///   - delegate: Receives the answers; held weakly.
    ///   - callbackQueue: Where the delegate is called: the main queue unless another is given (tests pass a
    ///     queue of their own).
    public init(delegate: (any BmobHistoryDelegate)?, callbackQueue: DispatchQueue = .main) {
        self.storedDelegate = delegate
        self.callbackQueue = callbackQueue
    }

    /// Receives the answers; held weakly.
    public var delegate: (any BmobHistoryDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    /// The server's answer to the last successful ``connect()``.
    public var serverInfo: BmobServerInfo? {
        lock.withLock { storedInfo }
    }

    /// Asks the server what it offers (``Bmob/serverInfo()``), then reports
    /// ``BmobHistoryDelegate/bmobHistory(_:serverIsValid:)``: `true` when it lists the `history` capability.
    /// On failure it reports `false`, then the error.
    ///
    /// - Returns: The task doing the work.
    @discardableResult
    public func connect() -> Task<Void, Never> {
        Task {
            do {
                let info = try await Bmob.serverInfo()
                lock.withLock { storedInfo = info }
                deliver { $0.bmobHistory($1, serverIsValid: info.supports("history")) }
            } catch {
                deliver { $0.bmobHistory($1, serverIsValid: false) }
                fail(error)
            }
        }
    }

    /// Fetches changes, newest first (the server's default page of 100), and reports
    /// ``BmobHistoryDelegate/bmobHistory(_:didReceiveChanges:)``; see ``BmobChangeQuery``.
    ///
    /// - Parameters:
    ///   - className: The class.
    ///   - objectId: Only this object's changes; `nil` for the whole class.
    ///   - since: Only changes at or after this date.
    ///   - until: Only changes at or before this date.
    ///   - userId: Only changes made by this user.
    /// - Returns: The task doing the work.
    @discardableResult
    public func getChanges(
        className: String, objectId: String? = nil, since: Date? = nil, until: Date? = nil, userId: String? = nil
    ) -> Task<Void, Never> {
        let query = BmobChangeQuery(className: className)
        query.objectId = objectId
        query.since = since
        query.until = until
        query.userId = userId
        return Task {
            do {
                let changes = try await query.find()
                deliver { $0.bmobHistory($1, didReceiveChanges: changes) }
            } catch {
                fail(error)
            }
        }
    }

    /// Fetches the class's deleted objects (``BmobObject/deletedObjects(className:limit:skip:)``) and reports
    /// ``BmobHistoryDelegate/bmobHistory(_:didReceiveDeletedObjects:)``.
    ///
    /// - Parameter className: The class.
    /// - Returns: The task doing the work.
    @discardableResult
    public func getDeletedObjects(className: String) -> Task<Void, Never> {
        Task {
            do {
                let changes = try await BmobObject.deletedObjects(className: className)
                deliver { $0.bmobHistory($1, didReceiveDeletedObjects: changes) }
            } catch {
                fail(error)
            }
        }
    }

    /// Puts the change's object back as it was before the change
    /// (``BmobObject/revert(toBefore:ifUnchangedSince:)-(BmobChange,_)``) and reports
    /// ``BmobHistoryDelegate/bmobHistory(_:didRevert:toBefore:)`` with the object as it is now.
    ///
    /// - Parameter change: The change to undo.
    /// - Returns: The task doing the work.
    @discardableResult
    public func revert(_ change: BmobChange) -> Task<Void, Never> {
        Task {
            do {
                let object = BmobObject(className: change.className)
                object.objectId = change.objectId
                try await object.revert(toBefore: change)
                deliver { $0.bmobHistory($1, didRevert: object, toBefore: change) }
            } catch {
                fail(error)
            }
        }
    }

    /// Brings back the object a delete change removed (``BmobChange/restore()``) and reports
    /// ``BmobHistoryDelegate/bmobHistory(_:didRestore:from:)``.
    ///
    /// - Parameter change: A delete change, as ``getDeletedObjects(className:)`` reports them.
    /// - Returns: The task doing the work.
    @discardableResult
    public func restore(_ change: BmobChange) -> Task<Void, Never> {
        Task {
            do {
                let object = try await change.restore()
                deliver { $0.bmobHistory($1, didRestore: object, from: change) }
            } catch {
                fail(error)
            }
        }
    }

    /// Reports `error` as a ``BmobError``.
    private func fail(_ error: any Error) {
        let error = BmobClient.bmobError(error)
        deliver { $0.bmobHistory($1, didFailWithError: error) }
    }

    /// Calls the delegate, if it is still there, on the callback queue.
    private func deliver(_ call: @escaping @Sendable (any BmobHistoryDelegate, BmobHistoryClient) -> Void) {
        callbackQueue.async { [self] in
            guard let delegate = self.delegate else { return }
            call(delegate, self)
        }
    }
}
