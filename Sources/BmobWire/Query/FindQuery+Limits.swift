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
}
