import BmobCore
import BmobWire
public import Foundation

/// A search of a class's history: every change of its objects, newest first, narrowed by date, user,
/// operation or object.
///
/// ```swift
/// let query = BmobChangeQuery(className: "Note")
/// query.since = Date().addingTimeInterval(-86_400)
/// query.operation = .delete
/// query.limit = 50
/// let changes = try await query.find()
/// ```
///
/// The server lists the changes of the objects the caller may read, leaving the others out after paging: a page
/// may hold fewer than ``limit`` changes while later pages still have some. Thread safety: the filters sit behind a
/// lock, so a query can be set up on one task and run on another.
///
/// ## Topics
///
/// ### Filters
/// - ``since``
/// - ``until``
/// - ``userId``
/// - ``operation``
/// - ``objectId``
///
/// ### Paging
/// - ``limit``
/// - ``skip``
///
/// ### Running
/// - ``find()``
public final class BmobChangeQuery: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: every `var` below is read and written only while `lock` is held,
    // and the lock is never held across an `await`.
    private let lock = NSLock()
    private var sinceValue: Date?
    private var untilValue: Date?
    private var userIdValue: String?
    private var operationValue: BmobChange.Operation?
    private var objectIdValue: String?
    private var limitValue = 100
    private var skipValue = 0

    /// The class whose history is searched.
    public let className: String

    /// A query for every change of `className`'s objects, the newest 100 first.
    public init(className: String) {
        self.className = className
    }

    /// Only changes made at or after this date. Dates count to the second, as ``BmobChange/date`` shows them:
    /// the whole second `since` falls in is included.
    public var since: Date? {
        get { lock.withLock { sinceValue } }
        set { lock.withLock { sinceValue = newValue } }
    }

    /// Only changes made at or before this date. Dates count to the second, as ``BmobChange/date`` shows them:
    /// the whole second `until` falls in is included, so a change's own date finds it.
    public var until: Date? {
        get { lock.withLock { untilValue } }
        set { lock.withLock { untilValue = newValue } }
    }

    /// Only changes made by the user with this objectId.
    public var userId: String? {
        get { lock.withLock { userIdValue } }
        set { lock.withLock { userIdValue = newValue } }
    }

    /// Only creates, updates or deletes.
    public var operation: BmobChange.Operation? {
        get { lock.withLock { operationValue } }
        set { lock.withLock { operationValue = newValue } }
    }

    /// Only the changes of one object (the same as ``BmobObject/history(limit:skip:)``).
    public var objectId: String? {
        get { lock.withLock { objectIdValue } }
        set { lock.withLock { objectIdValue = newValue } }
    }

    /// At most this many changes (default 100; the server's maximum is 1000).
    public var limit: Int {
        get { lock.withLock { limitValue } }
        set { lock.withLock { limitValue = newValue } }
    }

    /// How many of the newest matching changes to pass over, for paging (default 0).
    public var skip: Int {
        get { lock.withLock { skipValue } }
        set { lock.withLock { skipValue = newValue } }
    }

    /// The matching changes, newest first.
    ///
    /// - Returns: At most ``limit`` changes, after ``skip``.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty class name, a limit below 1 or a
    ///   negative skip; ``BmobError/objectNotFound`` (101) when ``objectId`` names an object the caller may
    ///   not read; other ``BmobError``s for network and server failures.
    public func find() async throws -> [BmobChange] {
        let (members, className) = try request()
        let answer = try await BmobClient.shared.call("history", members)
        return try BmobHistoryWire.changes(answer, className: className)
    }

    /// The `history` request's members for the filters as they are now.
    private func request() throws(BmobError) -> ([String: JSONValue], String) {
        let className = try BmobHistoryWire.required(self.className, "the class name")
        let (since, until, userId, operation, objectId, limit, skip) = lock.withLock {
            (sinceValue, untilValue, userIdValue, operationValue, objectIdValue, limitValue, skipValue)
        }
        var data: [String: JSONValue] = [:]
        try BmobHistoryWire.page(limit: limit, skip: skip, into: &data)
        if let since { data["since"] = BmobValueCoding.date(since) }
        // Dates go to the second; the server takes an `until` on a whole second as the end of that second.
        if let until { data["until"] = BmobValueCoding.date(until) }
        if let userId { data["user"] = .string(userId) }
        if let operation { data["op"] = .string(operation.rawValue) }
        var members: [String: JSONValue] = ["c": .string(className), "data": .object(data)]
        if let objectId { members["objectId"] = .string(objectId) }
        return (members, className)
    }
}
