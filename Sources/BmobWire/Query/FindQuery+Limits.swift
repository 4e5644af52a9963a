extension FindQuery {
    /// Most `order` keys one query may give: each is a sort term, and SQLite takes 2000 at most.
    package static let maximumOrderKeys = 100
    /// Most `keys` one query may give (classes have 1000 fields by default; leave `keys` out for all).
    package static let maximumKeys = 1000
    /// Most `include` paths one query may give: each expands pointers of every result.
    package static let maximumIncludes = 100
    /// Most fields each of `groupby`, `sum`, `average`, `max` and `min` may name: each is a result column,
    /// and SQLite returns 2000 at most.
    package static let maximumAggregateFields = 100

    /// The first list of this query that is longer than its limit above, named for a message; `nil` when all
    /// fit. The decoders refuse such queries; this states the rule once for the fuzz targets that check them.
    package var listOverItsLimit: String? {
        if order.count > Self.maximumOrderKeys { return "order" }
        if (keys?.count ?? 0) > Self.maximumKeys { return "keys" }
        if include.count > Self.maximumIncludes { return "include" }
        if let aggregation {
            let lists = [aggregation.groupBy, aggregation.sum, aggregation.average, aggregation.max, aggregation.min]
            if lists.contains(where: { $0.count > Self.maximumAggregateFields }) { return "statistics fields" }
        }
        return nil
    }
}
