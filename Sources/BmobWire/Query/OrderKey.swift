/// One key of an `order` list: `score` or `-score`.
package struct OrderKey: Sendable, Hashable {
    /// A field path, a system column, or an aggregate result name such as `_sumScore`.
    package var path: String
    package var descending: Bool

    package init(path: String, descending: Bool = false) {
        self.path = path
        self.descending = descending
    }
}
