import BmobWire

/// Shorthands for ``QueryCondition/normalized`` in the query tests.
func normalized(_ condition: QueryCondition) -> QueryCondition {
    condition.normalized
}

/// `nil` for no condition or an empty `and`, the normalized condition otherwise.
func normalized(_ condition: QueryCondition?) -> QueryCondition? {
    QueryCondition.normalized(condition)
}
