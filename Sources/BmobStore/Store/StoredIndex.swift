/// An index declared on a class: its field paths and whether it is unique.
package struct StoredIndex: Sendable, Hashable {
    /// The field paths, in the index's order.
    package var paths: [String]
    /// Whether two objects may not share its values.
    package var unique: Bool

    /// Makes an index value.
    package init(paths: [String], unique: Bool) {
        self.paths = paths
        self.unique = unique
    }
}
