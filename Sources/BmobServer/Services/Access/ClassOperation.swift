/// What a class-level permission governs.
package enum ClassOperation: String, Sendable, CaseIterable {
    /// Reading one object by id.
    case get
    /// Queries, counts and statistics.
    case find
    /// Creating objects.
    case create
    /// Updating objects.
    case update
    /// Deleting objects.
    case delete
    /// Writes that add a new field to the class.
    case addField
}
