/// What SQLite will do for a query: the SQL the store runs and `EXPLAIN QUERY PLAN`'s detail lines
/// (`SEARCH Post USING INDEX __index_Post_… (<expr>>?)`, `SCAN Post`, `USE TEMP B-TREE FOR ORDER BY`).
///
/// For tests and diagnostics: it proves that a query uses the expression index declared for its field.
package struct SQLiteQueryPlan: Sendable, Equatable {
    /// The statement text, parameters as `?`.
    package var sql: String
    /// One line per plan step, in SQLite's order.
    package var details: [String]

    /// Makes a plan value.
    package init(sql: String, details: [String]) {
        self.sql = sql
        self.details = details
    }

    /// Whether any step uses the named index.
    package func uses(index name: String) -> Bool {
        details.contains { $0.contains("USING INDEX \(name) ") || $0.hasSuffix("USING INDEX \(name)") }
    }

    /// Whether any step reads the whole table (`SCAN <table>` without an index).
    package func scans(table: String) -> Bool {
        details.contains { $0 == "SCAN \(table)" || $0.hasPrefix("SCAN \(table) ") && !$0.contains("USING") }
    }
}
