/// A value bound to a statement parameter, whatever the engine. Every value reaches the database this way, never
/// inside SQL text.
package enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// UTF-8 text the store encoded itself (JSON documents), bound from its bytes: making a `String` of them
    /// first would check the UTF-8 again. Reads never produce it.
    case utf8([UInt8])

    /// `.text` for a string, `.null` for `nil`.
    package init(_ text: String?) {
        self = text.map(SQLValue.text) ?? .null
    }

    /// `.utf8` for bytes, `.null` for `nil`.
    package init(utf8 bytes: [UInt8]?) {
        self = bytes.map(SQLValue.utf8) ?? .null
    }
}
