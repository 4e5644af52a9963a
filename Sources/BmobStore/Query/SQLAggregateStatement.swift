/// A compiled aggregate query: the statement, and how to read each result column into a result row.
package struct SQLAggregateStatement: Sendable, Hashable {
    /// `SELECT … FROM "<Class>" WHERE … GROUP BY … HAVING … ORDER BY … LIMIT <n> OFFSET ?`.
    package var statement: SQLFragment
    /// The result columns in `SELECT` order; a ``Column/Kind-swift.enum/json`` column uses two SQL columns.
    package var columns: [Column]

    /// Makes a compiled aggregate.
    package init(statement: SQLFragment, columns: [Column]) {
        self.statement = statement
        self.columns = columns
    }
}
