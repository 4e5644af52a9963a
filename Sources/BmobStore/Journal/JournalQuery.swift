/// Which object changes a history read returns (``StoreCoreReadTransaction/history(_:)``): the `create`, `update`
/// and `delete` entries of one class, or of one object, newest first, narrowed by time, author and kind.
package struct JournalQuery: Sendable, Equatable {
    /// The class whose changes are read.
    package var className: String
    /// Only this object's changes, when set.
    package var objectId: String?
    /// Only changes at or after this time, milliseconds since 1970 UTC.
    package var since: Int64?
    /// Only changes at or before this time, milliseconds since 1970 UTC.
    package var until: Int64?
    /// Only changes whose journal caller is this (a user id).
    package var caller: String?
    /// Only changes of this kind (``JournalOperation/create``, ``JournalOperation/update`` or
    /// ``JournalOperation/delete``); all three when `nil`.
    package var operation: JournalOperation?
    /// Changes skipped before the first returned, newest first.
    package var skip: Int
    /// The most changes returned.
    package var limit: Int

    /// The kinds of entry a history shows: an object's own changes, not relation or schema entries.
    package static let objectOperations: [JournalOperation] = [.create, .update, .delete]

    /// Makes a query value.
    package init(
        className: String, objectId: String? = nil, since: Int64? = nil, until: Int64? = nil, caller: String? = nil,
        operation: JournalOperation? = nil, skip: Int = 0, limit: Int = 100
    ) {
        self.className = className
        self.objectId = objectId
        self.since = since
        self.until = until
        self.caller = caller
        self.operation = operation
        self.skip = skip
        self.limit = limit
    }
}
