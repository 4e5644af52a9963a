/// A statement cache key: the SQL text, hashed cheaply.
///
/// The writer looks a statement up several times per write, and hashing whole SQL texts with `String`'s
/// hasher (SipHash over every byte) showed up in create's profile. This key hashes the length and the last
/// bytes, which tell statements apart well enough (they end in their table names, columns and `?` lists);
/// equality still compares the whole text, so two statements never share an entry.
struct SQLiteStatementKey: Hashable {
    let sql: String

    init(_ sql: String) {
        self.sql = sql
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sql == rhs.sql
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            let raw = UnsafeRawBufferPointer(bytes)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[max(0, raw.count - 48)...]))
            // The middle of a long statement: statements that share an ending differ there.
            if raw.count > 96 {
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[(raw.count / 2 - 24)..<(raw.count / 2)]))
            }
        }
    }
}
