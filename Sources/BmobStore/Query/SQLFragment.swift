/// SQL text with the values bound to its `?` parameters, in order.
///
/// The query compiler builds statements out of fragments; values only ever travel in ``arguments``, and the
/// text only ever holds validated identifiers, validated JSON paths and SQL of our own.
package struct SQLFragment: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text.
    package var sql: String
    /// The values of the `?` parameters in ``sql``, in order.
    package var arguments: [SQLValue]

    /// Makes a fragment; `sql` must hold exactly `arguments.count` parameters.
    package init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The text only: parameters stay `?`, so no value shows up in logs.
    package var description: String { sql }

    /// A condition that always holds (`TRUE`, which every engine reads as a boolean).
    static let alwaysTrue = SQLFragment("TRUE")
    /// A condition that never holds.
    static let alwaysFalse = SQLFragment("FALSE")

    var isAlwaysTrue: Bool { sql == "TRUE" && arguments.isEmpty }
    var isAlwaysFalse: Bool { sql == "FALSE" && arguments.isEmpty }

    /// Appends another fragment's text and arguments.
    mutating func append(_ other: SQLFragment) {
        sql += other.sql
        arguments += other.arguments
    }

    /// Appends SQL text that has no parameters.
    mutating func append(_ text: String) {
        sql += text
    }

    /// `(a AND b …)`: constant parts are folded, a single part is returned bare.
    static func all(_ parts: [SQLFragment]) -> SQLFragment {
        combine(parts, separator: " AND ", identity: alwaysTrue, absorbing: alwaysFalse)
    }

    /// `(a OR b …)`: constant parts are folded, a single part is returned bare.
    static func any(_ parts: [SQLFragment]) -> SQLFragment {
        combine(parts, separator: " OR ", identity: alwaysFalse, absorbing: alwaysTrue)
    }

    /// `NOT (a)`, folding constants.
    static func not(_ part: SQLFragment) -> SQLFragment {
        if part.isAlwaysTrue { return alwaysFalse }
        if part.isAlwaysFalse { return alwaysTrue }
        return SQLFragment("NOT (\(part.sql))", part.arguments)
    }

    /// `(a) IS NOT TRUE`: true when `a` is false or NULL, so a missing field counts as "not matching".
    static func isNotTrue(_ part: SQLFragment) -> SQLFragment {
        if part.isAlwaysTrue { return alwaysFalse }
        if part.isAlwaysFalse { return alwaysTrue }
        return SQLFragment("(\(part.sql)) IS NOT TRUE", part.arguments)
    }

    /// `?, ?, ?` for `count` parameters.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    private static func combine(
        _ parts: [SQLFragment],
        separator: String,
        identity: SQLFragment,
        absorbing: SQLFragment
    ) -> SQLFragment {
        var kept: [SQLFragment] = []
        for part in parts {
            if part == absorbing { return absorbing }
            if part != identity { kept.append(part) }
        }
        switch kept.count {
        case 0: return identity
        case 1: return kept[0]
        default:
            return SQLFragment(
                "(" + kept.map(\.sql).joined(separator: separator) + ")", kept.flatMap(\.arguments))
        }
    }
}
