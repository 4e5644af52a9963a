import BmobServerCodecs
import BmobTesting
import Foundation
import Testing

/// The `$regex` differential corpus (`Fixtures/regex-corpus.json`): cases of pattern, options and subject with
/// the answer of ``BoundedRegex/matches(_:)``, which every storage engine's `$regex` must reproduce.
///
/// The corpus covers ASCII and Unicode literals and escapes, classes (POSIX names included), case-insensitivity
/// (the Kelvin sign, sigma forms, Turkish dotless and dotted i, long s, sharp s), anchors with and without `m`,
/// `\b` and `\B`, `.` with and without `s`, `x` mode, counted repetition past 255, and random patterns. No
/// subject contains U+0000, which a PostgreSQL `text` cannot hold. The answers were produced by
/// ``BoundedRegex`` and agree with PostgreSQL 15's `~` on ``BoundedRegex/postgreSQLPattern``; this suite keeps
/// them in step with the matcher.
@Suite(.enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass")) struct BoundedRegexCorpusTests {
    /// One corpus case.
    struct Case: Decodable, Sendable {
        let pattern: String
        let options: String
        let subject: String
        let matches: Bool
    }

    /// Path of the corpus file in the source tree.
    static let corpusPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/regex-corpus.json")
        .path

    /// The corpus, decoded.
    static func corpus() throws -> [Case] {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpusPath))
        return try JSONDecoder().decode([Case].self, from: data)
    }

    @Test func corpusMatchesBoundedRegex() throws {
        let cases = try Self.corpus()
        #expect(cases.count >= 300)
        for entry in cases {
            #expect(!entry.subject.unicodeScalars.contains("\u{0}"))
            let regex = try BoundedRegex(pattern: entry.pattern, options: entry.options)
            #expect(
                regex.matches(entry.subject) == entry.matches,
                "\(entry.pattern) /\(entry.options) on \(entry.subject.debugDescription.prefix(80))")
        }
    }
}
