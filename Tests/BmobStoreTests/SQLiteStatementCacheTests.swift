import BmobStore
import BmobTesting
import Testing

@Suite("SQLiteStatementCache", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStatementCacheTests {
    @Test("texts that share the hashed windows stay apart: a hit compares the whole text")
    func sameWindowsDifferentTexts() {
        // Same length, same last 16 bytes, same middle: only the start differs.
        let tail = String(repeating: "x", count: 40) + " WHERE objectId = ?"
        let first = "SELECT a FROM \"One\" " + tail
        let second = "SELECT b FROM \"Two\" " + tail
        #expect(first.utf8.count == second.utf8.count)
        #expect(SQLiteStatementCache<Int>.hash(first) == SQLiteStatementCache<Int>.hash(second))
        var cache = SQLiteStatementCache<Int>(limit: 8)
        cache.insert(1, for: first)
        #expect(cache.statement(for: second) == nil)
        cache.insert(2, for: second)
        #expect(cache.statement(for: first) == 1)
        #expect(cache.statement(for: second) == 2)
        #expect(cache.count == 2)
    }

    @Test("short texts and the empty text are keys like any other")
    func shortTexts() {
        var cache = SQLiteStatementCache<Int>(limit: 8)
        for (value, text) in ["", "a", "BEGIN", "COMMIT", "RELEASE job"].enumerated() {
            cache.insert(value, for: text)
        }
        #expect(cache.statement(for: "") == 0)
        #expect(cache.statement(for: "COMMIT") == 3)
        #expect(cache.statement(for: "RELEASE job") == 4)
        #expect(cache.statement(for: "ROLLBACK") == nil)
    }

    @Test("at its limit the cache empties before taking the next text")
    func emptiesAtLimit() {
        var cache = SQLiteStatementCache<Int>(limit: 3)
        let texts = (0..<3).map { "INSERT INTO \"Class\($0)\" (objectId, data) VALUES (?, ?)" }
        for (value, text) in texts.enumerated() { cache.insert(value, for: text) }
        #expect(texts.enumerated().allSatisfy { cache.statement(for: $0.element) == $0.offset })
        cache.insert(9, for: "SELECT 1")
        #expect(cache.count == 1)
        #expect(cache.statement(for: "SELECT 1") == 9)
        #expect(texts.allSatisfy { cache.statement(for: $0) == nil })
        cache.removeAll()
        #expect(cache.count == 0 && cache.statement(for: "SELECT 1") == nil)
    }
}
