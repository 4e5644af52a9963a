package import BmobCore
package import BmobWire
public import Foundation

/// One change of one object, as the server's history records it: a create, an update or a delete, who made it,
/// when, through which door, and the object before and after.
///
/// ```swift
/// for change in try await note.history() {
///     print(change.seq, change.operation, change.changedFields, change.before?["title"] ?? "—")
/// }
/// ```
///
/// Changes come from ``BmobObject/history(limit:skip:)``, ``BmobChangeQuery/find()`` and
/// ``BmobObject/deletedObjects(className:limit:skip:)``, newest first. A change is a value: its snapshots are
/// kept as JSON, and ``before`` and ``after`` make a fresh ``BmobObject`` on every read, so changing one never
/// changes the change.
///
/// ## Topics
///
/// ### What changed
/// - ``seq``
/// - ``operation``
/// - ``date``
/// - ``changedFields``
///
/// ### Who changed it
/// - ``userId``
/// - ``door``
///
/// ### The object
/// - ``className``
/// - ``objectId``
/// - ``before``
/// - ``after``
///
/// ### Undoing it
/// - ``BmobObject/revert(toBefore:ifUnchangedSince:)-(BmobChange,_)``
/// - ``restore()``
public struct BmobChange: Sendable, Hashable, Identifiable {
    /// The change's position in the app's journal: it grows with every change, so a larger `seq` is a later
    /// change.
    public let seq: Int64
    /// Whether the object was created, updated or deleted.
    public let operation: Operation
    /// When the change was committed (second precision).
    public let date: Date
    /// The objectId of the user who made the change; `nil` for anonymous and master-key callers.
    public let userId: String?
    /// How the change came in, as the server names it (`rest`, `native`, `function:<name>`, …); `nil` when the
    /// server does not say.
    public let door: String?
    /// The object's class.
    public let className: String
    /// The object's id.
    public let objectId: String
    /// The names of the fields the change set or removed; for a create or a delete, the server may list every
    /// field or none.
    public let changedFields: [String]
    /// The object before the change, as the server sent it; `nil` for a create, or when hidden from the caller.
    package let beforeJSON: [String: JSONValue]?
    /// The object after the change; `nil` for a delete, or when hidden from the caller.
    package let afterJSON: [String: JSONValue]?

    /// The same as ``seq``: changes are identified by their place in the journal.
    public var id: Int64 { seq }

    /// The object as it was before the change: a new ``BmobObject`` of ``className`` on every read, with the
    /// snapshot's fields, `objectId`, dates and ACL and no unsaved changes. `nil` for a create, or when the
    /// server did not show the snapshot to the caller.
    public var before: BmobObject? { beforeJSON.map { BmobObject(className: className, json: $0) } }

    /// The object as the change left it: a new ``BmobObject`` on every read. `nil` for a delete, or when the
    /// server did not show the snapshot to the caller.
    public var after: BmobObject? { afterJSON.map { BmobObject(className: className, json: $0) } }

    /// A change from one history entry of the server's answer.
    ///
    /// - Parameters:
    ///   - json: `{"seq", "op", "at", "user", "door", "className", "objectId", "before", "after", "changed"}`.
    ///   - className: The class asked about, used when the entry does not name one.
    /// - Throws: ``BmobError/jsonParsingFailed`` when `seq`, `op` or `objectId` is missing.
    package init(json: JSONValue, className: String) throws(BmobError) {
        guard let seq = json["seq"]?.int64Value, let operation = json["op"]?.stringValue,
            let objectId = json["objectId"]?.stringValue ?? json["after"]?["objectId"]?.stringValue
                ?? json["before"]?["objectId"]?.stringValue
        else { throw .jsonParsingFailed }
        self.seq = seq
        self.operation = Operation(rawValue: operation)
        self.date = Self.date(json["at"]) ?? Date(timeIntervalSince1970: 0)
        self.userId = json["user"]?.stringValue ?? json["user"]?["objectId"]?.stringValue
        self.door = json["door"]?.stringValue
        self.className = json["className"]?.stringValue ?? className
        self.objectId = objectId
        self.changedFields = (json["changed"]?.arrayValue ?? []).compactMap(\.stringValue)
        self.beforeJSON = json["before"]?.objectValue
        self.afterJSON = json["after"]?.objectValue
    }

    /// A date sent as Bmob's Date value or as plain text.
    private static func date(_ json: JSONValue?) -> Date? {
        guard let json else { return nil }
        if let text = json["iso"]?.stringValue ?? json.stringValue { return BmobValueCoding.date(from: text) }
        return nil
    }
}
