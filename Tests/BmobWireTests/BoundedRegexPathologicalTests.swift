import BmobWire
import Testing
import BmobServerCodecs

/// Patterns that take exponential time in a backtracking engine, on subjects long enough that one would run for
/// hours (2^20000 paths for `(a+)+$`), checked for the right answer only. ``BoundedRegex`` does O(program ×
/// subject) work on each, a few million steps; nothing here is timed.
@Suite struct BoundedRegexPathologicalTests {
    /// A pattern and a subject built as `unit` repeated `count` times then `suffix`, so that test output stays
    /// short.
    typealias Case = (pattern: String, options: String, unit: String, count: Int, suffix: String, expected: Bool)

    static let cases: [Case] = [
        ("(a+)+$", "", "a", 20_000, "b", false),
        ("(a+)+$", "", "a", 20_000, "", true),
        ("^(a+)+$", "", "a", 20_000, "!", false),
        ("(a|a)*b", "", "a", 20_000, "", false),
        ("(a|aa)*c", "", "a", 20_000, "", false),
        ("(a*)*b", "", "a", 20_000, "", false),
        ("(a*)*$", "", "a", 20_000, "", true),
        ("(x+x+)+y", "", "x", 20_000, "", false),
        ("(.*a){20}", "", "a", 20_000, "", true),
        ("(.*a){20}", "", "b", 20_000, String(repeating: "a", count: 19), false),
        ("(.*a){20}", "", String(repeating: "b", count: 999) + "a", 20, "", true),
        ("(a?){30}a{30}", "", "a", 30, "", true),
        ("^(a?){30}a{30}$", "", "a", 29, "", false),
        ("(\\w+\\s?)+$", "", "a", 20_000, "!", false),
        ("^(([a-z])+.)+[A-Z]([a-z])+$", "", "a", 20_000, "!", false),
        ("((a{0,10}){0,10}){0,10}b", "", "a", 2_000, "", false),
        ("(?i)(a+)+$", "", "A", 20_000, "b", false),
        ("(a+)+$", "m", String(repeating: "a", count: 99) + "b\n", 200, "", false),
        ("^(a|b|ab)*c$", "", "ab", 10_000, "", false),
        ("(.*){1,100}[bc]", "", "a", 20_000, "", false),
        (".*入门.*", "", "入", 20_000, "门", true),
        ("(入+)+门$", "", "入", 20_000, "教", false),
        ("^(\\d+)*$", "", "1", 20_000, "x", false),
        ("([a-z0-9._%+-]+)+@example\\.com$", "", "a", 20_000, "@example.co", false),
    ]

    @Test(arguments: cases) func rightAnswerWithoutBacktracking(_ item: Case) throws {
        let regex = try BoundedRegex(pattern: item.pattern, options: item.options)
        let text = String(repeating: item.unit, count: item.count) + item.suffix
        #expect(regex.instructionCount <= BoundedRegex.maximumInstructionCount)
        #expect(regex.matches(text) == item.expected, "\(item.pattern) /\(item.options)")
    }

    @Test func largestProgramOnALongSubject() throws {
        // A program near the budget against a subject with no match: every scalar visits the whole program.
        let regex = try BoundedRegex(pattern: "(?:[a-z]{1,100}x){90}")
        #expect(regex.instructionCount > 15_000)
        #expect(!regex.matches(String(repeating: "a", count: 500)))
        #expect(regex.matches(String(repeating: "abx", count: 90)))
    }
}
