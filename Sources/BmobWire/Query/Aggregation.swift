/// The statistics part of a query (`groupby`, `groupcount`, `sum`, `average`, `max`, `min`, `having`).
///
/// Result rows are named as Bmob names them: `_sum`, `_avg`, `_max` or `_min` followed by the field with its
/// first letter upper-cased (`_sumScore`), `_count` when ``groupCount`` is set, plus the group-by fields.
/// Grouping on a date groups by day.
package struct Aggregation: Sendable, Hashable {
    package var groupBy: [String]
    package var groupCount: Bool
    package var sum: [String]
    package var average: [String]
    package var max: [String]
    package var min: [String]
    /// A condition on result rows, naming aggregate results (`{"_sumScore": {"$gt": 100}}`), matched
    /// case-insensitively.
    package var having: QueryCondition?

    package init(
        groupBy: [String] = [],
        groupCount: Bool = false,
        sum: [String] = [],
        average: [String] = [],
        max: [String] = [],
        min: [String] = [],
        having: QueryCondition? = nil
    ) {
        self.groupBy = groupBy
        self.groupCount = groupCount
        self.sum = sum
        self.average = average
        self.max = max
        self.min = min
        self.having = having
    }

    /// The result column name for a function applied to `field`: `resultName("sum", "score")` is `_sumScore`.
    package static func resultName(_ function: String, _ field: String) -> String {
        "_\(function)\(field.prefix(1).uppercased())\(field.dropFirst())"
    }
}
