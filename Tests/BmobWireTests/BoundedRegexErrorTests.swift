import BmobWire
import Testing
import BmobServerCodecs

/// ``BoundedRegex`` rejecting unsupported, malformed and oversized patterns with a message and a byte offset.
@Suite struct BoundedRegexErrorTests {
    typealias Case = (pattern: String, options: String, offset: Int, message: String)

    static let malformed: [Case] = [
        ("(a", "", 0, "missing closing parenthesis"),
        ("ab(cd", "", 2, "missing closing parenthesis"),
        ("(?:a", "", 0, "missing closing parenthesis"),
        ("(?i", "", 0, "missing closing parenthesis"),
        ("(\\Qa)", "", 0, "missing closing parenthesis"),
        ("a)", "", 1, "unmatched closing parenthesis"),
        ("(a))", "", 3, "unmatched closing parenthesis"),
        ("[abc", "", 0, "missing closing bracket"),
        ("x[a-z", "", 1, "missing closing bracket"),
        ("[]", "", 0, "missing closing bracket"),
        ("[^]", "", 0, "missing closing bracket"),
        ("*a", "", 0, "quantifier does not follow a repeatable item"),
        ("a|*b", "", 2, "quantifier does not follow a repeatable item"),
        ("(+a)", "", 1, "quantifier does not follow a repeatable item"),
        ("{2}", "", 0, "quantifier does not follow a repeatable item"),
        ("^*", "", 1, "quantifier does not follow a repeatable item"),
        ("a$?", "", 2, "quantifier does not follow a repeatable item"),
        ("\\b+", "", 2, "quantifier does not follow a repeatable item"),
        ("a**", "", 2, "nested quantifier"),
        ("a{2}{3}", "", 4, "nested quantifier"),
        ("a??+", "", 3, "nested quantifier"),
        ("a*+*", "", 3, "nested quantifier"),
        ("[z-a]", "", 1, "character class range out of order"),
        ("x[ab9-0]", "", 4, "character class range out of order"),
        ("[\\d-z]", "", 1, "invalid range in character class"),
        ("[a-\\d]", "", 1, "invalid range in character class"),
        ("[[:alpha:]-z]", "", 1, "invalid range in character class"),
        ("x{3,2}", "", 1, "repetition range out of order"),
        ("a{1001}", "", 1, "repetition count larger than 1000"),
        ("a{1,1001}", "", 1, "repetition count larger than 1000"),
        ("a{99999999999999999999}", "", 1, "repetition count larger than 1000"),
        ("\\", "", 0, "pattern ends with a backslash"),
        ("ab\\", "", 2, "pattern ends with a backslash"),
        ("[a\\", "", 2, "pattern ends with a backslash"),
        ("\\q", "", 0, "unknown escape \\q"),
        ("[\\q]", "", 1, "unknown escape \\q"),
        ("\\x", "", 0, "escape needs hexadecimal digits"),
        ("\\xg", "", 0, "escape needs hexadecimal digits"),
        ("\\x{110000}", "", 0, "not a valid Unicode scalar"),
        ("\\x{D800}", "", 0, "not a valid Unicode scalar"),
        ("\\uD800", "", 0, "not a valid Unicode scalar"),
        ("\\x{12", "", 0, "malformed code point escape"),
        ("\\x{}", "", 0, "malformed code point escape"),
        ("\\u12", "", 0, "\\u needs exactly four hexadecimal digits"),
        ("\\o12", "", 0, "\\o must be followed by {"),
        ("\\c", "", 0, "\\c must be followed by a printable ASCII character"),
        ("[[:foo:]]", "", 1, "unknown POSIX class name"),
        ("(?<1a>x)", "", 0, "invalid group name"),
        ("(?<a", "", 0, "invalid group name"),
        ("(?z)", "", 2, "unknown inline flag or group syntax"),
        ("(?i-)a(?--i)", "", 9, "unknown inline flag or group syntax"),
        ("(?Pa)", "", 0, "unknown group syntax after (?P"),
        ("(?#abc", "", 0, "missing ) after comment"),
        ("入门(", "", 6, "missing closing parenthesis"),
        ("é)", "", 2, "unmatched closing parenthesis"),
        ("[入门-一]", "", 4, "character class range out of order"),
    ]

    static let unsupported: [Case] = [
        ("(a)\\1", "", 3, "backreferences are not supported"),
        ("\\k<n>", "", 0, "backreferences are not supported"),
        ("\\g1", "", 0, "backreferences are not supported"),
        ("(?<n>a)(?P=n)", "", 7, "backreferences are not supported"),
        ("[\\1]", "", 1, "backreferences and octal escapes"),
        ("a(?=b)", "", 1, "lookahead assertions are not supported"),
        ("a(?!b)", "", 1, "lookahead assertions are not supported"),
        ("(?<=a)b", "", 0, "lookbehind assertions are not supported"),
        ("(?<!a)b", "", 0, "lookbehind assertions are not supported"),
        ("(?>a+)b", "", 0, "atomic groups are not supported"),
        ("(?R)", "", 0, "recursion and subroutine calls are not supported"),
        ("(a)(?1)", "", 3, "recursion and subroutine calls are not supported"),
        ("(?-1)", "", 0, "recursion and subroutine calls are not supported"),
        ("(?+1)", "", 0, "recursion and subroutine calls are not supported"),
        ("(?&n)", "", 0, "recursion and subroutine calls are not supported"),
        ("(?P>n)", "", 0, "recursion and subroutine calls are not supported"),
        ("(?(1)a|b)", "", 0, "conditional groups are not supported"),
        ("(?C1)", "", 0, "callouts are not supported"),
        ("(*FAIL)", "", 0, "backtracking control verbs"),
        ("\\p{L}", "", 0, "\\p is not supported"),
        ("a\\Kb", "", 1, "\\K is not supported"),
        ("\\G", "", 0, "\\G is not supported"),
        ("\\R", "", 0, "\\R is not supported"),
        ("\\N{U+41}", "", 0, "\\N{…} is not supported"),
        ("[\\Qa\\E]", "", 1, "\\Q and \\E are not supported in a character class"),
        ("[\\A]", "", 1, "\\A is not supported in a character class"),
    ]

    static let options: [Case] = [
        ("a", "q", 0, "unknown regex option 'q'"),
        ("a", "imq", 2, "unknown regex option 'q'"),
        ("a", "ié", 1, "unknown regex option"),
        ("a", "mi x", 2, "unknown regex option ' '"),
        ("a", "u", 0, "unknown regex option 'u'"),
        ("a", "I", 0, "unknown regex option 'I'"),
    ]

    private func check(_ item: Case) {
        #expect {
            _ = try BoundedRegex(pattern: item.pattern, options: item.options)
        } throws: { error in
            guard let error = error as? BoundedRegexError else { return false }
            return error.offset == item.offset && error.message.contains(item.message)
        }
    }

    @Test(arguments: malformed) func malformedPatterns(_ item: Case) { check(item) }
    @Test(arguments: unsupported) func unsupportedConstructs(_ item: Case) { check(item) }
    @Test(arguments: options) func unknownOptions(_ item: Case) { check(item) }

    @Test func errorsAreEquatableAndDescribeTheirOffset() throws {
        let error = #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "ab(") }
        #expect(error == BoundedRegexError(message: "missing closing parenthesis", offset: 2))
        #expect(error?.description == "missing closing parenthesis at byte 2")
    }

    @Test func patternLengthIsCapped() throws {
        let longest = String(repeating: "a", count: BoundedRegex.maximumPatternLength)
        #expect(try BoundedRegex(pattern: longest).matches(longest))
        let error = #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: longest + "a") }
        #expect(error?.offset == BoundedRegex.maximumPatternLength)
        // Multi-byte scalars count by their UTF-8 length.
        #expect(throws: BoundedRegexError.self) {
            try BoundedRegex(pattern: String(repeating: "入", count: BoundedRegex.maximumPatternLength / 3 + 1))
        }
    }

    @Test func nestingDepthIsCapped() throws {
        let depth = BoundedRegex.maximumNestingDepth
        let deepest = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        #expect(try BoundedRegex(pattern: deepest).matches("a"))
        let deeper = "(" + deepest + ")"
        let error = #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: deeper) }
        #expect(error?.offset == depth)
        #expect(error?.message.contains("nested deeper") == true)
        // Unbalanced to the limit and past it: still an error, never a crash.
        #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: String(repeating: "(", count: 1000)) }
        #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: String(repeating: "(?:", count: 300)) }
    }

    @Test func expandedProgramIsCapped() throws {
        let budget = BoundedRegex.maximumInstructionCount
        // 1 + 19 × 1000 + 998 instructions plus the final match: exactly the budget. Anchored, so matching
        // keeps one thread alive and stays quick in debug builds.
        let largest = try BoundedRegex(pattern: "^(?:a{1000}){19}a{998}")
        #expect(largest.instructionCount == budget)
        #expect(largest.matches(String(repeating: "a", count: 19_998)))
        #expect(!largest.matches(String(repeating: "a", count: 19_997)))

        let overflow = #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "^(?:a{1000}){19}a{999}") }
        #expect(overflow?.offset == 16)
        #expect(overflow?.message.contains("pattern too large") == true)

        // Nested counts are rejected at the quantifier that crosses the budget, before anything is expanded.
        let nested = #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "(a{1000}){1000}") }
        #expect(nested?.offset == 9)
        #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "((a{1000}){1000}){1000}") }
        #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "(((a{100}){100}){100}){100}") }
        #expect(throws: BoundedRegexError.self) { try BoundedRegex(pattern: "(?:(.*){1,1000}){6}") }

        // Many small items add up: twenty a{1000} exceed it at the twentieth.
        let sum = #expect(throws: BoundedRegexError.self) {
            try BoundedRegex(pattern: String(repeating: "a{1000}", count: 20))
        }
        #expect(sum?.offset == 19 * 7)

        // Alternation branches count too.
        #expect(throws: BoundedRegexError.self) {
            try BoundedRegex(pattern: "(?:" + Array(repeating: "[a-z]{1000}", count: 20).joined(separator: "|") + ")")
        }
    }

    @Test func everyRejectedPatternReportsAnOffsetInsideIt() {
        for item in Self.malformed + Self.unsupported {
            do {
                _ = try BoundedRegex(pattern: item.pattern, options: item.options)
                Issue.record("\(item.pattern) compiled")
            } catch {
                #expect((0...item.pattern.utf8.count).contains(error.offset), "\(item.pattern)")
                #expect(!error.message.isEmpty)
            }
        }
    }
}
