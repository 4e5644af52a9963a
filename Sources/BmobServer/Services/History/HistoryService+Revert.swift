package import BmobStore
package import BmobWire

/// Revert and restore: each writes a new change (journaled with the door `revert:<seq>` or `restore:<seq>`, seen by
/// realtime subscribers and `beforeSave`/`afterSave` triggers like any save); nothing in the history is rewritten.
///
/// Rules:
/// 1. Both need write access to the object as it is (for a deleted object, its last version) and to the version
///    they bring back, and the class permission (`update` for revert, `create` for restore); the master key
///    bypasses ACLs and class permissions. Refusals answer 101, as for a missing object.
/// 2. Revert is computed and written in one transaction. With `ifUpdatedAt`, an object changed since answers 409.
///    When a `beforeSave` trigger must see it first, the revert is computed, handed to the trigger, and written only
///    if the object is still the version it was computed from; otherwise it is recomputed (up to three times, then
///    409).
/// 3. Relation memberships are not reverted (they are not versions of the object); a restore adds back the
///    members its delete removed. Classes with their own endpoints (`_User`, `_Role`, …) are not reverted or
///    restored: their rules (unique names, credentials) live in their services.
extension HistoryService {
    /// Lets a `beforeSave` trigger see and change the fields a revert or restore is about to write, with the
    /// object as it is (`nil` for a restore).
    package typealias BeforeSave =
        @Sendable (_ body: [String: JSONValue], _ original: StoredObject?) async throws -> [String: JSONValue]

    /// Makes the object what it was before change `seq`.
    ///
    /// - Parameter ifUpdatedAt: the `updatedAt` the client last saw (milliseconds; compared to the second, the
    ///   precision clients see): 409 when the object changed since.
    /// - Throws: ``BmobAPIError`` 101 (object, change or write access missing), 301 (the change created the
    ///   object: there is no earlier version), 409, 103, 501, and the update's errors (a field whose type the
    ///   schema changed since answers 111).
    package func revert(
        className: String, objectId: String, seq: Int64, ifUpdatedAt: Int64?, context: AppContext,
        beforeSave: BeforeSave? = nil
    ) async throws -> HistoryWrite {
        try ObjectService.validateWritable(className)
        let scope = try await callers.caller(context).scope
        var writing = context
        writing.acting = "revert:\(seq)"
        let author = writing.journalAuthor
        let security = context.app.security
        let now = { [clock] in clock.nowMilliseconds() }
        var attempt = 0
        while true {
            attempt += 1
            do {
                let (before, object): (StoredObject, StoredObject)
                if let beforeSave {
                    // The trigger runs outside any transaction: the write then checks that the object is still the
                    // version the revert was computed from.
                    let (current, computed) = try await ObjectService.mapStoreErrors {
                        try await context.store.read { transaction in
                            try Self.revertPlan(
                                className: className, objectId: objectId, seq: seq, ifUpdatedAt: ifUpdatedAt,
                                scope: scope, transaction: transaction)
                        }
                    }
                    let body = try await beforeSave(computed, current)
                    let time = now()
                    object = try await ObjectService.mapStoreErrors {
                        try await context.store.write(caller: author, rerunnable: true) { transaction in
                            try ClassPermissions.check(.update, className: className, scope: scope, transaction: transaction)
                            return try ObjectService.update(
                                className: className, objectId: objectId, body: body, now: time, scope: scope,
                                security: security, expected: current, transaction: transaction)
                        }
                    }
                    before = current
                } else {
                    // Computed and written in one transaction: nothing can come between.
                    let time = now()
                    (before, object) = try await ObjectService.mapStoreErrors {
                        try await context.store.write(caller: author, rerunnable: true) { transaction in
                            let (current, body) = try Self.revertPlan(
                                className: className, objectId: objectId, seq: seq, ifUpdatedAt: ifUpdatedAt,
                                scope: scope, transaction: transaction)
                            let object = try ObjectService.update(
                                className: className, objectId: objectId, body: body, now: time, scope: scope,
                                security: security, transaction: transaction)
                            return (current, object)
                        }
                    }
                }
                let changed = HistoryEntryRenderer.changedFields(before: before.json, after: object.json)
                return HistoryWrite(
                    object: object,
                    answer: [
                        "objectId": .string(objectId), "updatedAt": .string(context.renderer.date(object.updatedAt)),
                        "changed": .array(changed.map { .string($0) }),
                    ])
            } catch let error as BmobAPIError where error.code == .changedSinceRead && ifUpdatedAt == nil && attempt < 3 {
                continue  // rule 2: another write landed between the trigger's read and the write
            }
        }
    }

    /// Brings a deleted object back with its id, its creation time and the relation members its delete removed.
    ///
    /// - Throws: ``BmobAPIError`` 101 (no such deleted object, it came back since, or no write access), 103, 501,
    ///   and the create's errors (a field whose type the schema changed since answers 111).
    package func restore(
        className: String, objectId: String, context: AppContext, beforeSave: BeforeSave? = nil
    ) async throws -> HistoryWrite {
        try ObjectService.validateWritable(className)
        let scope = try await callers.caller(context).scope
        let (version, deleteSeq, computed) = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                try Self.restorePlan(className: className, objectId: objectId, scope: scope, transaction: transaction)
            }
        }
        let body = try await beforeSave?(computed, nil) ?? computed
        var writing = context
        writing.acting = "restore:\(deleteSeq)"
        let author = writing.journalAuthor
        let security = context.app.security
        let now = clock.nowMilliseconds()
        let restoring = (objectId: objectId, createdAt: version.createdAt)
        let object = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: author, rerunnable: true) { transaction in
                try ClassPermissions.check(.create, className: className, scope: scope, transaction: transaction)
                // Another restore (or a create with this id) won the race.
                guard try transaction.fetch(className: className, objectId: objectId) == nil else {
                    throw Self.noDeletedObject(objectId)
                }
                return try ObjectService.insert(
                    className: className, body: body, now: now, ids: .ascending, scope: scope, security: security,
                    restoring: restoring, transaction: transaction)
            }
        }
        return HistoryWrite(
            object: object,
            answer: [
                "objectId": .string(objectId), "createdAt": .string(context.renderer.date(object.createdAt)),
                "updatedAt": .string(context.renderer.date(object.updatedAt)),
            ])
    }

    /// The object as it is and the update body that makes it the version before change `seq` (rule 1).
    private static func revertPlan(
        className: String, objectId: String, seq: Int64, ifUpdatedAt: Int64?, scope: AccessScope,
        transaction: any StoreReadTransaction
    ) throws -> (StoredObject, [String: JSONValue]) {
        try ClassPermissions.check(.update, className: className, scope: scope, transaction: transaction)
        guard let current = try transaction.fetch(className: className, objectId: objectId), scope.canWrite(current.acl)
        else { throw BmobAPIError.objectNotFound(objectId) }
        if let ifUpdatedAt, current.updatedAt / 1000 != ifUpdatedAt / 1000 {
            throw BmobAPIError(.changedSinceRead, "object \(objectId) changed since ifUpdatedAt")
        }
        guard let entry = try transaction.journalEntry(seq: seq), entry.className == className,
            entry.objectId == objectId, JournalQuery.objectOperations.contains(entry.op)
        else {
            throw BmobAPIError(.objectNotFound, "change \(seq) of object \(objectId) not found (or no longer kept).")
        }
        guard let document = entry.before, let target = StoredObject(className: className, json: document) else {
            throw BmobAPIError(
                .validationFailed, "change \(seq) created object \(objectId): there is no version before it (delete it instead)")
        }
        guard scope.canWrite(target.acl) else { throw BmobAPIError.objectNotFound(objectId) }
        var body: [String: JSONValue] = [:]
        for (field, value) in target.fields where !isRelation(value) { body[field] = value }
        for (field, value) in current.fields where target.fields[field] == nil && !isRelation(value) {
            body[field] = ["__op": "Delete"]
        }
        body["ACL"] = target.acl ?? .null
        return (current, body)
    }

    /// The deleted object's last version, its delete's `seq`, and the create body that brings it back.
    private static func restorePlan(
        className: String, objectId: String, scope: AccessScope, transaction: any StoreReadTransaction
    ) throws -> (StoredObject, Int64, [String: JSONValue]) {
        try ClassPermissions.check(.create, className: className, scope: scope, transaction: transaction)
        guard try transaction.fetch(className: className, objectId: objectId) == nil,
            let last = try transaction.history(JournalQuery(className: className, objectId: objectId, limit: 1)).first,
            last.op == .delete, let document = last.before,
            let version = StoredObject(className: className, json: document), scope.canWrite(version.acl)
        else { throw noDeletedObject(objectId) }
        var body: [String: JSONValue] = [:]
        for (field, value) in version.fields where !isRelation(value) { body[field] = value }
        if let acl = version.acl { body["ACL"] = acl }
        var members: [String: [PointerValue]] = [:]
        for change in try transaction.relationsRemoved(className: className, objectId: objectId, deleteSeq: last.seq) {
            members[change.key, default: []] += change.targets
        }
        for (field, targets) in members where !targets.isEmpty {
            body[field] = ["__op": "AddRelation", "objects": .array(targets.map(\.json))]
        }
        return (version, last.seq, body)
    }

    private static func isRelation(_ value: JSONValue) -> Bool {
        value["__type"]?.stringValue == "Relation"
    }

    private static func noDeletedObject(_ objectId: String) -> BmobAPIError {
        BmobAPIError(.objectNotFound, "no deleted object \(objectId) to restore (it was restored since, or never deleted).")
    }
}
