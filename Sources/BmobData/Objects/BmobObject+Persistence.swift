package import BmobCore
package import BmobWire
import Foundation

extension BmobObject {
    /// Creates the object on the server, or, once it has an objectId, sends only the fields and operations
    /// changed since the last save.
    ///
    /// ```swift
    /// note["title"] = "新标题"
    /// let sent = try await note.save()   // ["title"]
    /// ```
    ///
    /// - Returns: The names of the fields the request carried (values and operations, `ACL` when it changed),
    ///   sorted; empty when an update had nothing to send. The result may be ignored.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when a field was set to a value that cannot be stored,
    ///   ``BmobError/serverError(code:message:)`` with Bmob's code (111 type mismatch, 105 invalid field name…).
    @discardableResult
    public func save() async throws -> [String] {
        let change = try pendingChange()
        let answer = try await BmobClient.shared.call(change.route, change.request)
        finishSave(change, answer: answer)
        return change.sentFieldNames
    }

    /// Deletes the object on the server.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when it was never saved, ``BmobError/objectNotFound``.
    public func delete() async throws {
        guard let objectId else { throw BmobError.invalidParameter(reason: "the object has no objectId") }
        _ = try await BmobClient.shared.call("delete", ["c": .string(className), "objectId": .string(objectId)])
    }

    /// Saves several objects in one request (`/8/batch`): updates those that have an objectId, creates the
    /// others. Every object is updated from its own result.
    ///
    /// - Throws: the first item's error when any item failed (the others are applied).
    public static func updateBatch(_ objects: [BmobObject]) async throws {
        let batch = BmobBatch()
        for object in objects { batch.save(object) }
        let results = try await batch.execute()
        if let failure = results.compactMap(\.error).first { throw failure }
    }

    /// One save's request, and what it carried so that finishing can clear exactly that.
    package struct PendingChange {
        package var route: String
        package var request: [String: JSONValue]
        package var sent: [String: JSONValue]
        package var aclSent: Bool

        /// The names of the fields the request carries, `ACL` included when sent, sorted.
        package var sentFieldNames: [String] {
            (Array(sent.keys) + (aclSent ? ["ACL"] : [])).sorted()
        }
    }

    /// The request a save would send now.
    package func pendingChange() throws(BmobError) -> PendingChange {
        let (error, objectId, pending, acl, aclChanged) = lock.withLock {
            () -> (BmobError?, String?, [String: JSONValue], BmobACL?, Bool) in
            (pendingError, storedObjectId, self.pending, storedACL, self.aclChanged)
        }
        if let error {
            lock.withLock { pendingError = nil }
            throw error
        }
        var data = pending
        if aclChanged { data["ACL"] = acl?.bmobJSON ?? .object([:]) }
        var request: [String: JSONValue] = ["c": .string(className), "data": .object(data)]
        if let objectId { request["objectId"] = .string(objectId) }
        return PendingChange(
            route: objectId == nil ? "create" : "update", request: request, sent: pending, aclSent: aclChanged)
    }

    /// Applies a successful save's answer: ids and dates, and clears what was sent unless it changed meanwhile.
    package func finishSave(_ change: PendingChange, answer: JSONValue) {
        lock.withLock {
            if let objectId = answer["objectId"]?.stringValue { storedObjectId = objectId }
            if let created = answer["createdAt"]?.stringValue.flatMap(BmobValueCoding.date(from:)) {
                storedCreatedAt = created
                storedUpdatedAt = created
            }
            if let updated = answer["updatedAt"]?.stringValue.flatMap(BmobValueCoding.date(from:)) {
                storedUpdatedAt = updated
            }
            for (key, value) in change.sent where pending[key] == value {
                pending[key] = nil
            }
            if change.aclSent { aclChanged = false }
        }
    }
}
