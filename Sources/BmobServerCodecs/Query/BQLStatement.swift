package import BmobWire

/// A parsed BQL `select`: the ``FindQuery`` it runs plus what its select list asked for.
///
/// `select count(*) from C` sets ``countRequested`` and, having no columns, a limit of 0 (the count only)
/// unless a `limit` clause gives one;
/// `select count(*), * from C` answers objects and the count. In a statistics query (an aggregate function,
/// `group by` or `having`) `count(*)` instead asks for `_count` per group: ``Aggregation/groupCount``.
package struct BQLStatement: Sendable, Hashable {
    /// The find to run, with condition, order, limit, skip, keys, include, count and aggregation.
    package var query: FindQuery
    /// Whether the statement selects `count(*)` (or `count(objectId)`) outside a statistics query.
    package var countRequested: Bool
    /// The columns named in the select list, in order; they become ``FindQuery/keys`` unless ``selectsAll``.
    package var columns: [String]
    /// Whether the select list has `*`.
    package var selectsAll: Bool
    /// The `include p` entries of the select list (also in ``FindQuery/include``).
    package var include: [String]

    /// Creates a statement from its parts.
    package init(query: FindQuery, countRequested: Bool, columns: [String], selectsAll: Bool, include: [String]) {
        self.query = query
        self.countRequested = countRequested
        self.columns = columns
        self.selectsAll = selectsAll
        self.include = include
    }
}
