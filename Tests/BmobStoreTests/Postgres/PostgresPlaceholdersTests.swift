@testable import BmobStore
import BmobTesting
import Testing

@Suite("PostgresPlaceholders", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct PostgresPlaceholdersTests {
    @Test("markers are numbered in order")
    func numbersMarkers() {
        let result = PostgresPlaceholders.numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?) LIMIT ? OFFSET ?")
        #expect(result.sql == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3) LIMIT $4 OFFSET $5")
        #expect(result.count == 5)
    }

    @Test("a ? inside literals, quoted identifiers and comments is left alone")
    func quotedTextIsLeftAlone() {
        let sql = #"SELECT '?', 'it''s ?', "odd?name" FROM t -- why?"# + "\n" + "WHERE /* a ? /* nested ? */ b */ x = ?"
        let result = PostgresPlaceholders.numbered(sql)
        #expect(
            result.sql
                == #"SELECT '?', 'it''s ?', "odd?name" FROM t -- why?"# + "\n" + "WHERE /* a ? /* nested ? */ b */ x = $1")
        #expect(result.count == 1)
    }

    @Test("text without markers comes back unchanged, multi-byte characters included")
    func unchangedText() {
        let sql = "SELECT 'héllo ✓', data -> 'f' FROM t"
        #expect(PostgresPlaceholders.numbered(sql).sql == sql)
        #expect(PostgresPlaceholders.numbered(sql).count == 0)
        #expect(PostgresPlaceholders.numbered("").sql == "")
    }

    @Test("an unterminated literal keeps everything after it as literal text")
    func unterminatedLiteral() {
        #expect(PostgresPlaceholders.numbered("SELECT ? WHERE 'open ?").sql == "SELECT $1 WHERE 'open ?")
    }
}
