/// A value that goes to and comes from the server's functions: a JSON value in which whole numbers are
/// ``int(_:)``.
///
/// Build arguments from literals (`["text": "Hello", "count": 3]`) or from your own `Codable` types
/// (`try OnebaseValue(note)`); read results with ``string``, ``int``, ``double``, ``bool``, ``array``, ``object``
/// and key paths such as `value?["user", "name"]?.string`.
public enum OnebaseValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number; every whole number that arrives from the server is one.
    case int(Int64)
    /// A number with a fraction, or beyond the range of `Int64`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([OnebaseValue])
    /// An object.
    case object([String: OnebaseValue])
}
