/// The bounds a sync message is decoded within; a peer that exceeds one gets a ``SyncProtocolError``.
package struct SyncLimits: Sendable, Hashable {
    /// The largest message, in bytes of its JSON text.
    package var maximumMessageBytes: Int
    /// The most query additions and removals one `ModifyQuerySet` may carry.
    package var maximumModifications: Int
    /// The most entries of a `Transition`'s modifications or a response's `logLines`.
    package var maximumItems: Int

    /// The defaults: 1 MiB messages, 1,000 modifications, 10,000 items.
    package init(maximumMessageBytes: Int = 1 << 20, maximumModifications: Int = 1000, maximumItems: Int = 10_000) {
        self.maximumMessageBytes = maximumMessageBytes
        self.maximumModifications = maximumModifications
        self.maximumItems = maximumItems
    }

    /// No bounds but the JSON parser's nesting depth: for tests and for re-reading what this side encoded.
    package static let unbounded = SyncLimits(maximumMessageBytes: .max, maximumModifications: .max, maximumItems: .max)
}
