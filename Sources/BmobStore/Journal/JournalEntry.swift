package import BmobWire

/// One journal row: a committed change, in commit order.
///
/// Every write appends its rows in the same transaction as the data, so a committed change always has its
/// row and a rolled-back one never does. Realtime events, history, revert and sync catch-up read these, in
/// `seq` order (see ``Store``, "The journal's order").
package struct JournalEntry: Sendable, Equatable {
    /// Position in the journal: increasing, never reused.
    package var seq: Int64
    /// The class the change touched.
    package var className: String
    /// The object the change touched; `nil` for class-wide operations (``JournalOperation/schema``,
    /// ``JournalOperation/dropClass``).
    package var objectId: String?
    /// The kind of change.
    package var op: JournalOperation
    /// The object before the change (``StoredObject/json`` form), `nil` for a create; for schema, relation and
    /// class entries, the document ``JournalOperation`` describes.
    package var before: JSONValue?
    /// The object after the change (``StoredObject/json`` form), `nil` for a delete; for schema and relation
    /// entries, the document ``JournalOperation`` describes.
    package var after: JSONValue?
    /// Who made the change: a user id, `master`, or a server task's name; `nil` for an anonymous caller.
    package var caller: String?
    /// The protocol the change came in through (`rest`, `native`, …), if recorded.
    package var door: String?
    /// When the change was made, milliseconds since 1970 UTC, from the store's clock.
    package var time: Int64

    /// Makes a journal entry value.
    package init(
        seq: Int64,
        className: String,
        objectId: String?,
        op: JournalOperation,
        before: JSONValue?,
        after: JSONValue?,
        caller: String?,
        door: String? = nil,
        time: Int64
    ) {
        self.door = door
        self.seq = seq
        self.className = className
        self.objectId = objectId
        self.op = op
        self.before = before
        self.after = after
        self.caller = caller
        self.time = time
    }
}
