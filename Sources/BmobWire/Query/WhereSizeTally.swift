/// What a `where` holds so far while ``WhereParser`` reads it, held to ``WhereParser/maximumConditions``,
/// ``WhereParser/maximumTotalListLength`` and ``WhereParser/maximumSubQueryDepth`` across the whole `where`,
/// sub-queries included.
struct WhereSizeTally {
    /// Conditions counted so far, each weighted by its sub-query depth plus one.
    private(set) var conditions = 0
    /// `$in`, `$nin` and `$all` values counted so far.
    private(set) var values = 0
    /// Sub-queries around the part being read.
    private(set) var subQueryDepth = 0

    /// Counts `count` more conditions at the current sub-query depth: SQLite's expression depth grows by the
    /// length of a chain of conditions once for every sub-query around it, and once more for the query itself.
    ///
    /// - Throws: ``QueryParseError`` 402 once the total passes ``WhereParser/maximumConditions``.
    mutating func addConditions(_ count: Int) throws(QueryParseError) {
        conditions += count * (subQueryDepth + 1)
        guard conditions <= WhereParser.maximumConditions else {
            throw .whereTooLarge(
                "where holds more than \(WhereParser.maximumConditions) conditions (operators, $or and $and "
                    + "branches, $all values; one in a sub-query counts once more per level); use $in for many "
                    + "values of one field, or split the query")
        }
    }

    /// Enters a sub-query's `where`.
    ///
    /// - Throws: ``QueryParseError`` 102 beyond ``WhereParser/maximumSubQueryDepth``.
    mutating func enterSubQuery() throws(QueryParseError) {
        guard subQueryDepth < WhereParser.maximumSubQueryDepth else {
            throw .invalidQuery(
                "where nests sub-queries ($inQuery, $notInQuery, $select, $dontSelect) more than "
                    + "\(WhereParser.maximumSubQueryDepth) levels deep")
        }
        subQueryDepth += 1
    }

    /// Leaves the sub-query entered last.
    mutating func leaveSubQuery() {
        subQueryDepth -= 1
    }

    /// Counts `count` more listed values.
    ///
    /// - Throws: ``QueryParseError`` 402 once the total passes ``WhereParser/maximumTotalListLength``.
    mutating func addValues(_ count: Int) throws(QueryParseError) {
        values += count
        guard values <= WhereParser.maximumTotalListLength else {
            throw .whereTooLarge(
                "where lists more than \(WhereParser.maximumTotalListLength) values in its $in, $nin and $all "
                    + "in total; split the query")
        }
    }
}
