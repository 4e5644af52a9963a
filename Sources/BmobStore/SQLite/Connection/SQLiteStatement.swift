import CSQLite

/// A prepared statement, owned by its connection's cache and finalized when dropped.
///
/// Only its connection lends it out (``SQLiteConnection/withStatement(_:_:_:)``), on the connection's thread.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// The SQL text, for error details.
    let sql: String
    /// How many `?` parameters the statement has.
    private let parameterCount: Int
    /// Whether a bound value is large enough that the statement should not keep its copy once reset.
    private var holdsLargeValue = false
    /// The connection's work budget: a statement it stopped fails with the budget's error, not SQLite's.
    private let budget: SQLiteWorkBudget

    /// Texts above this size are released at reset; smaller ones stay bound until the next use overwrites
    /// them, which spares a `sqlite3_clear_bindings` per statement run.
    private static let largeValueBytes = 4096

    init(_ handle: OpaquePointer, sql: String, budget: SQLiteWorkBudget) {
        self.handle = handle
        self.sql = sql
        self.budget = budget
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1…n.
    func bind(_ values: [SQLValue]) throws(StoreError) {
        // Parameters left out are NULL, not whatever the previous run bound.
        if values.count < parameterCount { sqlite3_clear_bindings(handle) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(handle, index, real)
            case .text(var text):
                code = text.withUTF8 { bindText($0, at: index) }
            case .utf8(let bytes):
                code = bytes.withUnsafeBufferPointer { bindText($0, at: index) }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        if bytes.count > Self.largeValueBytes { holdsLargeValue = true }
        // An empty buffer may have no base address, and a NULL pointer would bind SQL NULL.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return CSQLite_bind_text(handle, index, "", 0)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            CSQLite_bind_text(handle, index, chars, Int32(bytes.count))
        }
    }

    /// Advances to the next row; `false` when the statement is done.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure(code)
        }
    }

    /// Resets the statement for reuse; releases its bindings when one of them is large.
    func reset() {
        sqlite3_reset(handle)
        if holdsLargeValue {
            sqlite3_clear_bindings(handle)
            holdsLargeValue = false
        }
    }

    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as an integer (0 for NULL).
    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column as the value SQLite holds: integer, real, text (a blob reads as UTF-8 text) or NULL.
    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: .null
        default: .text(text(column) ?? "")
        }
    }

    /// The column as text, `nil` for NULL.
    func text(_ column: Int32) -> String? {
        withBytes(column) { bytes in String(decoding: bytes, as: UTF8.self) }
    }

    /// Lends the column's UTF-8 bytes (valid only inside `body`), `nil` for NULL.
    func withBytes<T, E: Error>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: pointer, count: count))
    }

    /// The error for a failed call: the budget's when it stopped the statement (an interrupt from the
    /// progress handler, or `bmob_regexp` failing), else SQLite's.
    private func failure(_ code: Int32) -> StoreError {
        if let error = budget.error { return error }
        return SQLiteConnection.error(code: code, handle: sqlite3_db_handle(handle), sql: sql)
    }
}

@available(*, unavailable, message: "a statement belongs to a connection confined to one thread")
extension SQLiteStatement: Sendable {}
