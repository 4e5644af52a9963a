package import BmobStore
package import BmobWire

/// One committed change as a journal feed yields it, before any door decides who hears it and how: the
/// journal entry without the door-specific parts (who made it and when).
package struct RealtimeChange: Sendable, Equatable {
    /// Position in the app's journal; feeds yield changes in this order.
    package var seq: Int64
    /// The class the change touched.
    package var className: String
    /// The kind of change.
    package var op: JournalOperation
    /// The object the change touched; `nil` for class-wide operations such as ``JournalOperation/dropClass``.
    package var objectId: String?
    /// The object before the change, as stored (``StoredObject/json``); `nil` for a create.
    package var before: JSONValue?
    /// The object after the change, as stored; `nil` for a delete.
    package var after: JSONValue?

    /// A change with these parts.
    package init(
        seq: Int64, className: String, op: JournalOperation, objectId: String?, before: JSONValue?, after: JSONValue?
    ) {
        self.seq = seq
        self.className = className
        self.op = op
        self.objectId = objectId
        self.before = before
        self.after = after
    }

    /// The change a journal entry records.
    package init(_ entry: JournalEntry) {
        self.init(
            seq: entry.seq, className: entry.className, op: entry.op, objectId: entry.objectId, before: entry.before,
            after: entry.after)
    }
}
