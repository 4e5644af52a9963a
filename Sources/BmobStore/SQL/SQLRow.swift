/// One result row of an engine's connection, valid only inside the closure that receives it: what the store's
/// row helpers read, whatever the engine.
protocol SQLRow: SendableMetatype {
    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool
    /// The column as an integer (0 for NULL).
    func int64(_ column: Int32) -> Int64
    /// The column as the engine's scalar: integer, real, text or NULL (what aggregates return).
    func value(_ column: Int32) -> SQLValue
    /// The column as text, `nil` for NULL.
    func text(_ column: Int32) -> String?
    /// Lends the column's UTF-8 bytes (valid only inside `body`), `nil` for NULL.
    func withBytes<T, E: Error>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T?
}
