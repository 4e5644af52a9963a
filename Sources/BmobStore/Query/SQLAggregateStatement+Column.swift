extension SQLAggregateStatement {
    /// One key of each result row.
    package struct Column: Sendable, Hashable {
        /// How the SQL result becomes a JSON value.
        package enum Kind: Sendable, Hashable {
            /// Integer, real, text or NULL, as SQLite returns it (sums, averages, counts, days, objectIds).
            case value
            /// A grouped JSON field: its `json_extract` value, then its `json_type`, so objects and
            /// booleans come back as such.
            case json
            /// Milliseconds (`createdAt`, `updatedAt`) shown as Bmob's date text.
            case milliseconds
            /// A Date field's `iso` text, shown as a Date object.
            case date
        }

        /// The key in the result row: the group-by field as given, `_count`, or `_sumScore` and so on.
        package var name: String
        package var kind: Kind

        /// Makes a column description.
        package init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }
}
