/// A complete find request against one class: condition, order, paging, projection, includes, count and
/// statistics. REST query parameters, native `find` payloads and BQL statements all decode into it.
package struct FindQuery: Sendable, Hashable {
    /// Results when no limit is given.
    package static let defaultLimit = 100
    /// The largest limit accepted; larger values are clamped.
    package static let maximumLimit = 1000

    package var className: String
    package var condition: QueryCondition?
    package var order: [OrderKey]
    /// 0 with ``count`` asks for the count only.
    package var limit: Int
    package var skip: Int
    /// Fields to return (`objectId`, `createdAt`, `updatedAt` always come back); `nil` means all.
    package var keys: [String]?
    /// Pointer paths to expand, dots for nesting (`post.author`).
    package var include: [String]
    /// Also answer the number of matching objects.
    package var count: Bool
    package var aggregation: Aggregation?
    /// Server side only, never encoded: when set, only objects whose ACL lets one of these grantees (`*`, a user
    /// id, `role:Name`) read them, or that have no ACL, match. `nil` applies no ACL (the master key, or the
    /// server's own lookups).
    package var readers: Set<String>?

    package init(
        className: String,
        condition: QueryCondition? = nil,
        order: [OrderKey] = [],
        limit: Int = FindQuery.defaultLimit,
        skip: Int = 0,
        keys: [String]? = nil,
        include: [String] = [],
        count: Bool = false,
        aggregation: Aggregation? = nil
    ) {
        self.className = className
        self.condition = condition
        self.order = order
        self.limit = limit
        self.skip = skip
        self.keys = keys
        self.include = include
        self.count = count
        self.aggregation = aggregation
    }
}
