package import BmobStore
package import BmobWire

/// What a revert or restore wrote: the object as stored, and the answer clients get.
package struct HistoryWrite: Sendable {
    /// The object after the write (for `afterSave` triggers).
    package var object: StoredObject
    /// `{"objectId", "updatedAt", "changed"}` for a revert, `{"objectId", "createdAt", "updatedAt"}` for a restore.
    package var answer: JSONValue
}
