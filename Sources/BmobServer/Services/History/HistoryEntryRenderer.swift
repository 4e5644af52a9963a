package import BmobStore
package import BmobWire

/// A journal entry as a history answer shows it to one caller:
/// `{"seq", "op", "at": Date, "user", "door", "className", "objectId", "before", "after", "changed"}`.
///
/// Each snapshot is shown only if the caller could read that version (its own ACL), rendered as objects are for
/// that caller (`_User` fields the caller may not see are removed). `changed` names the fields whose values
/// differ between the snapshots; it is `null` when a snapshot the entry has is hidden, since the names alone
/// would tell what a hidden version held, and it never names a field hidden from the caller.
package struct HistoryEntryRenderer: Sendable {
    /// Who reads.
    package var scope: AccessScope
    /// How snapshots are rendered for ``scope``.
    package var renderer: ObjectRenderer

    package init(scope: AccessScope, renderer: ObjectRenderer) {
        self.scope = scope
        self.renderer = renderer
    }

    /// The entry's JSON for the caller.
    package func render(_ entry: JournalEntry) -> JSONValue {
        let before = snapshot(entry.before, className: entry.className)
        let after = snapshot(entry.after, className: entry.className)
        let hidesSome = (entry.before != nil && before == nil) || (entry.after != nil && after == nil)
        var changed: JSONValue = .null
        if !hidesSome {
            let names = Self.changedFields(before: entry.before, after: entry.after)
                .filter { field in isVisible(field, className: entry.className, objectId: entry.objectId ?? "") }
            changed = .array(names.map { .string($0) })
        }
        let user: JSONValue = entry.caller.map { $0 == "master" ? JSONValue.null : .string($0) } ?? .null
        return [
            "seq": .int(entry.seq),
            "op": .string(entry.op.rawValue),
            "at": ["__type": "Date", "iso": .string(renderer.date(entry.time))],
            "user": user,
            "door": entry.door.map { .string($0) } ?? .null,
            "className": .string(entry.className),
            "objectId": entry.objectId.map { .string($0) } ?? .null,
            "before": before.map(JSONValue.object) ?? .null,
            "after": after.map(JSONValue.object) ?? .null,
            "changed": changed,
        ]
    }

    /// The version as the caller sees it, or `nil` when there is none or its ACL hides it.
    func snapshot(_ json: JSONValue?, className: String) -> [String: JSONValue]? {
        guard let json, let object = StoredObject(className: className, json: json), scope.canRead(object.acl) else {
            return nil
        }
        return renderer.render(object)
    }

    /// Whether the caller may learn that `field` changed: not a `_User` field hidden from it.
    private func isVisible(_ field: String, className: String, objectId: String) -> Bool {
        guard className == "_User", let privacy = renderer.privacy else { return true }
        if case .master = privacy.viewer { return true }
        if field == "authData" { return privacy.viewer.userId == objectId }
        return privacy.viewer.userId == objectId || !privacy.protectedFields.contains(field)
    }

    /// The fields (and `ACL`) whose values differ between two stored versions, sorted; for a create or a delete,
    /// every field of the version there is. System dates and the id are not fields.
    package static func changedFields(before: JSONValue?, after: JSONValue?) -> [String] {
        let old = before?.objectValue ?? [:]
        let new = after?.objectValue ?? [:]
        var names: [String] = []
        for key in Set(old.keys).union(new.keys) where !["objectId", "createdAt", "updatedAt"].contains(key) {
            if old[key] != new[key] { names.append(key) }
        }
        return names.sorted()
    }
}
