/// The bounds a sync message is decoded within; a peer that exceeds one gets a ``SyncProtocolError``.
package struct SyncLimits: Sendable, Hashable {
    /// The largest message, in bytes of its JSON text.
    package var maximumMessageBytes: Int
    /// The most query additions and removals one `ModifyQuerySet` may carry.
    package var maximumModifications: Int
    /// The most entries of a `Transition`'s modifications or a response's `logLines`.
    package var maximumItems: Int
    /// The largest transition sent in chunks, in bytes of its joined JSON text: the server ends a socket rather than
    /// send a larger one, and clients refuse larger ones.
    package var maximumTransitionBytes: Int

    /// The defaults: 1 MiB messages, 1,000 modifications, 10,000 items, 16 MiB transitions.
    package init(
        maximumMessageBytes: Int = 1 << 20, maximumModifications: Int = 1000, maximumItems: Int = 10_000,
        maximumTransitionBytes: Int = 16 << 20
    ) {
        self.maximumMessageBytes = maximumMessageBytes
        self.maximumModifications = maximumModifications
        self.maximumItems = maximumItems
        self.maximumTransitionBytes = maximumTransitionBytes
    }

    /// No bounds but the JSON parser's nesting depth: for tests and for re-reading what this side encoded.
    package static let unbounded = SyncLimits(
        maximumMessageBytes: .max, maximumModifications: .max, maximumItems: .max, maximumTransitionBytes: .max)
}
