/// Prepared statements (or any value) by SQL text: an open-addressing table with a cheap hash.
///
/// The writer looks a statement up four or five times per create. A `Dictionary` keyed by the text hashes
/// it whole with SipHash on every lookup; this table hashes the
/// length and two 16-byte windows (the end, where statements differ in table names, columns and `?` lists,
/// and the middle) with a multiply-xor mix, and compares the whole text on a hit, so two statements never
/// share an entry. Linear probing, at most half full; when full, it empties (it only fills up with per-class
/// statements, which are prepared again on their next use).
package struct SQLiteStatementCache<Statement> {
    private struct Entry {
        let hash: UInt64
        let sql: String
        let statement: Statement
    }

    /// Most statements kept; the table has twice as many slots.
    package let limit: Int
    private var slots: [Entry?]
    package private(set) var count = 0

    package init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        var capacity = 1
        while capacity < 2 * limit { capacity <<= 1 }
        slots = Array(repeating: nil, count: capacity)
    }

    /// The statement prepared for `sql`, if cached.
    package func statement(for sql: String) -> Statement? {
        let hash = Self.hash(sql)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while let entry = slots[index] {
            if entry.hash == hash, entry.sql == sql { return entry.statement }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Caches `statement` for `sql` (not already cached); empties the table first when it holds `limit`.
    package mutating func insert(_ statement: Statement, for sql: String) {
        if count >= limit { removeAll() }
        let hash = Self.hash(sql)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != nil { index = (index + 1) & mask }
        slots[index] = Entry(hash: hash, sql: sql, statement: statement)
        count += 1
    }

    /// Drops every statement (each finalizes when its last user lets go).
    package mutating func removeAll() {
        for index in slots.indices { slots[index] = nil }
        count = 0
    }

    /// Length, the last 16 bytes and the 16 bytes before the middle, mixed.
    package static func hash(_ sql: String) -> UInt64 {
        var sql = sql
        return sql.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var hash = UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15
            func mix(_ word: UInt64) {
                hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 31
            }
            if raw.count >= 16 {
                mix(raw.loadUnaligned(fromByteOffset: raw.count - 16, as: UInt64.self))
                mix(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
                let middle = raw.count / 2 - 8
                mix(raw.loadUnaligned(fromByteOffset: middle, as: UInt64.self))
                mix(raw.loadUnaligned(fromByteOffset: middle + 8, as: UInt64.self))
            } else {
                for byte in raw { mix(UInt64(byte)) }
            }
            return hash ^ (hash >> 29)
        }
    }
}
