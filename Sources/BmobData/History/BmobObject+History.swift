import BmobCore
import BmobWire
public import Foundation

extension BmobObject {
    /// The object's changes, newest first: its create, updates and, after a restore, its delete.
    ///
    /// ```swift
    /// let changes = try await note.history(limit: 20)
    /// if let last = changes.first, last.operation == .update { print(last.changedFields) }
    /// ```
    ///
    /// The server shows the changes to callers who may read the object; a snapshot the caller may not read is
    /// `nil` (``BmobChange/before``, ``BmobChange/after``). How long changes are kept is the server's setting
    /// (``BmobServerInfo/historyRetention``).
    ///
    /// - Parameters:
    ///   - limit: At most this many changes (the server's maximum is 1000).
    ///   - skip: How many of the newest changes to pass over, for paging.
    /// - Returns: The changes, newest first.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the object has no objectId or the paging is
    ///   negative; ``BmobError/objectNotFound`` (101) when the object does not exist or the caller may not read
    ///   it; other ``BmobError``s for network and server failures.
    public func history(limit: Int = 100, skip: Int = 0) async throws -> [BmobChange] {
        let objectId = try BmobHistoryWire.required(self.objectId, "the object's objectId")
        var data: [String: JSONValue] = [:]
        try BmobHistoryWire.page(limit: limit, skip: skip, into: &data)
        let answer = try await BmobClient.shared.call(
            "history", ["c": .string(className), "objectId": .string(objectId), "data": .object(data)])
        return try BmobHistoryWire.changes(answer, className: className)
    }

    /// Puts the object back as it was before `change`, on the server, then fetches it: afterwards its fields,
    /// dates and ACL are the server's (unsaved local changes are dropped).
    ///
    /// ```swift
    /// let changes = try await note.history()
    /// try await note.revert(toBefore: changes[0])          // undo the last change
    /// try await note.revert(toBefore: changes[0], ifUnchangedSince: note.updatedAt)
    /// ```
    ///
    /// A revert is itself an update, recorded in the history (its ``BmobChange/door`` is `revert:<seq>`), so
    /// reverting the revert redoes the change. The server writes the snapshot's fields and ACL and removes the
    /// fields the snapshot lacks; relation memberships are not reverted, and `_User`, `_Role` and the other
    /// built-in classes cannot be reverted.
    ///
    /// - Parameters:
    ///   - change: One of this object's changes (not a create, whose `before` is nothing: the server answers
    ///     301).
    ///   - ifUnchangedSince: When given, the object's ``updatedAt`` as the caller last saw it: the server
    ///     refuses (code 409) unless the object's `updatedAt` is still that second, that is when someone changed
    ///     it since. Pass ``updatedAt`` as you showed it to the user.
    /// - Returns: The names of the fields the revert changed.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the change is another object's or the object has
    ///   no objectId; ``BmobError/serverError(code:message:)`` 409 when it changed since `ifUnchangedSince`,
    ///   301 when the change created the object; ``BmobError/objectNotFound`` (101) when the object or the
    ///   change is missing or the caller may not write the object (or the version brought back).
    @discardableResult
    public func revert(toBefore change: BmobChange, ifUnchangedSince: Date? = nil) async throws -> [String] {
        guard change.className == className, change.objectId == objectId else {
            throw BmobError.invalidParameter(reason: "the change is not one of this object's")
        }
        return try await revert(toBefore: change.seq, ifUnchangedSince: ifUnchangedSince)
    }

    /// Puts the object back as it was before the change numbered `seq`, then fetches it; see
    /// ``revert(toBefore:ifUnchangedSince:)``.
    ///
    /// - Parameters:
    ///   - seq: The ``BmobChange/seq`` of one of this object's changes.
    ///   - ifUnchangedSince: When given, the ``updatedAt`` the caller last saw: the server refuses (code 409)
    ///     when the object's `updatedAt` is another second.
    /// - Returns: The names of the fields the revert changed.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the object has no objectId,
    ///   ``BmobError/serverError(code:message:)`` 409 when it changed since `ifUnchangedSince`,
    ///   ``BmobError/objectNotFound`` (101) when the change or the object is missing or not writable.
    @discardableResult
    public func revert(toBefore seq: Int64, ifUnchangedSince: Date? = nil) async throws -> [String] {
        let objectId = try BmobHistoryWire.required(self.objectId, "the object's objectId")
        var data: [String: JSONValue] = ["seq": .int(seq)]
        if let ifUnchangedSince { data["ifUpdatedAt"] = BmobValueCoding.date(ifUnchangedSince) }
        let answer = try await BmobClient.shared.call(
            "revert", ["c": .string(className), "objectId": .string(objectId), "data": .object(data)])
        try await fetch()
        return (answer["changed"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Brings the object back after it was deleted, with the same objectId and its last fields and ACL, then
    /// fetches it. The object is usually one made by a ``BmobChange`` (``BmobChange/before`` of a delete from
    /// ``deletedObjects(className:limit:skip:)``); any object with the deleted object's class and id will do.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the object has no objectId;
    ///   ``BmobError/objectNotFound`` (101) when no deleted version is known, the object exists again, or the
    ///   caller may not write it; other ``BmobError``s for network and server failures.
    public func restore() async throws {
        let objectId = try BmobHistoryWire.required(self.objectId, "the object's objectId")
        try await BmobHistoryWire.restore(className: className, objectId: objectId)
        try await fetch()
    }

    /// The deleted objects of a class, newest deletion first: for each, its delete change, whose
    /// ``BmobChange/before`` is the last version and whose ``BmobChange/restore()`` brings it back.
    ///
    /// ```swift
    /// for deleted in try await BmobObject.deletedObjects(className: "Note") {
    ///     print(deleted.objectId, deleted.before?["title"] ?? "—")
    /// }
    /// ```
    ///
    /// Objects restored since are not listed. Only objects the caller could read before their deletion show
    /// their `before`.
    ///
    /// - Parameters:
    ///   - className: The class.
    ///   - limit: At most this many (the server's maximum is 1000).
    ///   - skip: How many of the newest to pass over.
    /// - Returns: One delete change per deleted object.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty class name or negative paging; other
    ///   ``BmobError``s for network and server failures.
    public static func deletedObjects(className: String, limit: Int = 100, skip: Int = 0) async throws
        -> [BmobChange]
    {
        let className = try BmobHistoryWire.required(className, "the class name")
        var data: [String: JSONValue] = [:]
        try BmobHistoryWire.page(limit: limit, skip: skip, into: &data)
        let answer = try await BmobClient.shared.call("deleted", ["c": .string(className), "data": .object(data)])
        return try BmobHistoryWire.changes(answer, className: className)
    }
}
