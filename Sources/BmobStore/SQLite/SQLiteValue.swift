/// A value bound to a statement parameter. Every value reaches SQLite this way, never inside SQL text.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.text` for a string, `.null` for `nil`.
    init(_ text: String?) {
        self = text.map(SQLiteValue.text) ?? .null
    }
}
