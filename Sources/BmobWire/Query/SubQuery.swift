/// The query inside `$select`, `$dontSelect`, `$inQuery` and `$notInQuery`: a class and a `where`.
/// Bmob ignores limit, skip, order and include inside them.
package struct SubQuery: Sendable, Hashable {
    package var className: String
    package var condition: QueryCondition?

    package init(className: String, condition: QueryCondition?) {
        self.className = className
        self.condition = condition
    }
}
