/// What a `where` holds so far while ``WhereParser`` reads it, held to ``WhereParser/maximumConditions`` and
/// ``WhereParser/maximumTotalListLength`` across the whole `where`, sub-queries included.
struct WhereSizeTally {
    /// Conditions counted so far.
    private(set) var conditions = 0
    /// `$in`, `$nin` and `$all` values counted so far.
    private(set) var values = 0

    /// Counts `count` more conditions.
    ///
    /// - Throws: ``QueryParseError`` 402 once the total passes ``WhereParser/maximumConditions``.
    mutating func addConditions(_ count: Int) throws(QueryParseError) {
        conditions += count
        guard conditions <= WhereParser.maximumConditions else {
            throw .whereTooLarge(
                "where holds more than \(WhereParser.maximumConditions) conditions (operators, $or and $and "
                    + "branches, $all values); use $in for many values of one field, or split the query")
        }
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
