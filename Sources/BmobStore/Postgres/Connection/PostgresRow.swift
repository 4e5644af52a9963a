import CLibPQ

/// One row of a query result in text format, valid only inside the closure that receives it (the result is
/// cleared afterwards).
struct PostgresRow: SQLRow {
    /// The result this row belongs to.
    let result: OpaquePointer
    /// The row's index in the result.
    let index: Int32

    /// Whether column `column` is SQL NULL.
    func isNull(_ column: Int32) -> Bool {
        PQgetisnull(result, index, column) == 1
    }

    /// The column as text; `nil` for NULL.
    func text(_ column: Int32) -> String? {
        withBytes(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column as a 64-bit integer (0 for NULL or text that is not one).
    func int64(_ column: Int32) -> Int64 {
        withBytes(column) { bytes in
            var value: Int64 = 0
            var negative = false
            for (offset, byte) in bytes.enumerated() {
                if offset == 0, byte == UInt8(ascii: "-") {
                    negative = true
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return 0 }
                value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
            }
            return negative ? -value : value
        } ?? 0
    }

    /// The column as a boolean (`t`); `false` for NULL.
    func bool(_ column: Int32) -> Bool {
        withBytes(column) { $0.first == UInt8(ascii: "t") } ?? false
    }

    /// The column's type OID (`20` for `bigint`, `3802` for `jsonb`, …).
    func type(_ column: Int32) -> UInt32 {
        PQftype(result, column)
    }

    /// Lends the column's bytes (text format, without the terminating NUL); `nil` for NULL.
    func withBytes<T, E: Error>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T) throws(E) -> T? {
        guard PQgetisnull(result, index, column) == 0, let value = PQgetvalue(result, index, column) else {
            return nil
        }
        let length = Int(PQgetlength(result, index, column))
        return try value.withMemoryRebound(to: UInt8.self, capacity: length) { bytes throws(E) in
            try body(UnsafeBufferPointer(start: bytes, count: length))
        }
    }

    /// The column as a scalar by its type: integers as integers, `numeric` and floats as integers when they hold
    /// a whole number in range and as reals otherwise, booleans as 1 and 0, anything else as text.
    func value(_ column: Int32) -> SQLValue {
        guard let text = text(column) else { return .null }
        switch type(column) {
        case PostgresTypeOID.int8, PostgresTypeOID.int4, PostgresTypeOID.int2:
            return .integer(Int64(text) ?? 0)
        case PostgresTypeOID.numeric, PostgresTypeOID.float8, PostgresTypeOID.float4:
            if let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? 0)
        case PostgresTypeOID.bool:
            return .integer(text == "t" ? 1 : 0)
        default:
            return .text(text)
        }
    }
}
