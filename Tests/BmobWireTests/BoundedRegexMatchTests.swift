import BmobWire
import Testing
import BmobServerCodecs

/// ``BoundedRegex`` on a table of (pattern, options, subject, expected) per construct, with PCRE's answers.
@Suite struct BoundedRegexMatchTests {
    typealias Case = (pattern: String, options: String, text: String, expected: Bool)

    static let literals: [Case] = [
        ("abc", "", "xxabcxx", true),
        ("abc", "", "abxc", false),
        ("", "", "", true),
        ("", "", "anything", true),
        ("a", "", "", false),
        ("a.c", "", "abc", true),
        ("a.c", "", "a\nc", false),
        ("a.c", "s", "a\nc", true),
        ("a.c", "", "a\rc", true),
        ("a.c", "", "a入c", true),
        (".", "", "", false),
        ("^.$", "", "\u{E9}", true),
        ("^.$", "", "e\u{301}", false),
        ("^..$", "", "e\u{301}", true),
        ("]", "", "a]", true),
        ("}", "", "}", true),
        ("a#b", "", "a#b", true),
    ]

    static let classes: [Case] = [
        ("[abc]", "", "xbx", true),
        ("[abc]", "", "xyz", false),
        ("^[a-z]+$", "", "hello", true),
        ("^[a-z]+$", "", "Hello", false),
        ("[^abc]", "", "abc", false),
        ("[^abc]", "", "abcd", true),
        ("^[^a]$", "", "\n", true),
        ("[]a]", "", "]", true),
        ("[^]a]", "", "]", false),
        ("[^]a]", "", "b", true),
        ("[a-]", "", "-", true),
        ("[-a]", "", "-", true),
        ("[a\\-z]", "", "b", false),
        ("[\\d.]", "", "x.y", true),
        ("^[\\w-]+$", "", "foo-bar_1", true),
        ("^[\\w-]+$", "", "foo bar", false),
        ("[\\]]", "", "]", true),
        ("[\\\\]", "", "\\", true),
        ("[\\n]", "", "\n", true),
        ("[\\b]", "", "\u{8}", true),
        ("^[\\x41-\\x43]+$", "", "ABC", true),
        ("^[\\x41-\\x43]+$", "", "ABCD", false),
        ("[[:digit:]]", "", "a1", true),
        ("^[[:alpha:]]+$", "", "abc1", false),
        ("[[:^digit:]]", "", "123", false),
        ("^[[:xdigit:][:space:]]+$", "", "0f A9", true),
        ("[[:punct:]]", "", "a!", true),
        ("[[a]", "", "[", true),
        ("[一-龥]", "", "Swift入门", true),
        ("[一-龥]", "", "Swift", false),
        ("[\\D]", "", "123", false),
        ("[\\S]", "", "  ", false),
        ("[a-c\\d]", "", "5", true),
        ("[.]", "", "a", false),
        ("[*+?{}()|^$]", "", "$", true),
        ("[\\u5165]", "", "入", true),
        ("[😀-😂]", "", "x😁", true),
    ]

    static let escapes: [Case] = [
        ("\\d+", "", "abc123", true),
        ("^\\d+$", "", "12a", false),
        ("\\D", "", "123", false),
        ("\\d", "", "\u{661}", false),
        ("\\w", "", "!!_", true),
        ("\\w", "", "入", false),
        ("\\W", "", "abc_1", false),
        ("\\s", "", "a\tb", true),
        ("\\s", "", "a\u{0B}b", true),
        ("\\S", "", " \n\t", false),
        ("\\h", "", "a b", true),
        ("\\h", "", "a\nb", false),
        ("\\H", "", " \t", false),
        ("\\v", "", "\u{0B}", true),
        ("\\v", "", "\n", true),
        ("\\V", "", "\n\r", false),
        ("a\\.b", "", "a.b", true),
        ("a\\.b", "", "axb", false),
        ("\\\\", "", "a\\b", true),
        ("\\/", "", "a/b", true),
        ("\\t", "", "a\tb", true),
        ("\\n", "", "a\nb", true),
        ("\\r", "", "\r", true),
        ("\\f", "", "\u{0C}", true),
        ("\\e", "", "\u{1B}", true),
        ("\\a", "", "\u{07}", true),
        ("\\cA", "", "\u{01}", true),
        ("\\cz", "", "\u{1A}", true),
        ("\\0", "", "\u{0}", true),
        ("\\012", "", "\n", true),
        ("\\o{101}", "", "A", true),
        ("\\x41", "", "A", true),
        ("\\xA", "", "\n", true),
        ("\\x{5165}", "", "入门", true),
        ("\\x{1F600}", "", "😀", true),
        ("\\u5165\\u95E8", "", "Swift入门", true),
        ("\\u5165\\u95e8", "", "Swift入", false),
        ("\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$", "", "*+?()[]{}|^$", true),
        ("\\-\\#\\ \\入", "", "-# 入", true),
        ("\\N", "", "\n", false),
        ("\\N", "", "a", true),
        ("\\Qa.b\\E", "", "a.b", true),
        ("\\Qa.b\\E", "", "axb", false),
        ("\\Qa.b", "", "a.b", true),
        ("\\Q(a|b)*\\E", "", "(a|b)*", true),
        ("^\\Qab\\E+$", "", "abbb", true),
        ("^\\Qab\\E+$", "", "abab", false),
        ("a\\Eb", "", "ab", true),
        ("\\Q\\Ea", "", "a", true),
    ]

    static let anchors: [Case] = [
        ("^b", "", "a\nb", false),
        ("^b", "m", "a\nb", true),
        ("a$", "", "a\nb", false),
        ("a$", "m", "a\nb", true),
        ("a$", "", "ba\n", true),
        ("a$", "", "ba\n\n", false),
        ("a$", "m", "ba\n\n", true),
        ("a\\z", "", "ba\n", false),
        ("a\\z", "", "ba", true),
        ("a\\Z", "", "ba\n", true),
        ("a\\Z", "", "ba\nc", false),
        ("a\\Z", "m", "a\nb", false),
        ("\\Aa", "m", "b\na", false),
        ("\\Ab", "", "b\na", true),
        ("^a", "m", "b\na", true),
        ("^$", "", "", true),
        ("^$", "", "\n", true),
        ("^$", "", "a", false),
        ("^$", "m", "a\n", false),
        ("^$", "m", "a\n\nb", true),
        ("x$", "m", "x\r\n", false),
        ("$", "", "abc", true),
        ("a^b", "", "a^b", false),
        ("a\\^b", "", "a^b", true),
        ("a$b", "m", "a\nb", false),
        ("(?m)^b", "", "a\nb", true),
        ("(?m:^b)|^c", "", "a\nb", true),
        ("(?m:^b)|^c", "", "a\nc", false),
        ("(?m)x$(?-m)", "", "x\ny", true),
        ("\\bcat\\b", "", "a cat!", true),
        ("\\bcat\\b", "", "concat", false),
        ("\\bcat\\b", "", "cat", true),
        ("\\Bcat", "", "concat", true),
        ("\\Bcat", "", "cat", false),
        ("\\b", "", "", false),
        ("\\B", "", "", true),
        ("\\b", "", "!", false),
        ("\\b入", "", "入门", false),
        ("a\\b", "", "a入", true),
        ("(^|,)b(,|$)", "", "a,b,c", true),
        ("(^|,)b(,|$)", "", "a,bc", false),
    ]

    static let groups: [Case] = [
        ("(ab)+", "", "abab", true),
        ("^(ab)+$", "", "aba", false),
        ("(?:ab)+c", "", "ababc", true),
        ("(?<year>\\d{4})-(?<month>\\d{2})", "", "on 2024-05-01", true),
        ("(?<year>\\d{4})-(?<month>\\d{2})", "", "on 2024-5-01", false),
        ("(?P<name>\\w+)@", "", "bob@x", true),
        ("(?'n'a)b", "", "ab", true),
        ("cat|dog", "", "hotdog", true),
        ("cat|dog", "", "cow", false),
        ("^(cat|dog)$", "", "cat", true),
        ("^(cat|dog)$", "", "cats", false),
        ("^cat|dog$", "", "cats", true),
        ("a|", "", "zzz", true),
        ("(|a)b", "", "b", true),
        ("()", "", "", true),
        ("(?:)", "", "x", true),
        ("a(?#comment)b", "", "ab", true),
        ("(?|a|b)c", "", "bc", true),
        ("((a|b)c|d)+e", "", "acbcde", true),
        ("((a|b)c|d)+e", "", "acbce", true),
        ("^((a|b)c|d)+e$", "", "acbbe", false),
        ("^(a|ab)(c|bcd)(d*)$", "", "abcd", true),
        ("^(((((((((a)))))))))$", "", "a", true),
    ]

    static let quantifiers: [Case] = [
        ("ab*c", "", "ac", true),
        ("ab*c", "", "abbbc", true),
        ("ab+c", "", "ac", false),
        ("ab+c", "", "abbc", true),
        ("ab?c", "", "abbc", false),
        ("ab?c", "", "ac", true),
        ("^a{3}$", "", "aaa", true),
        ("^a{3}$", "", "aa", false),
        ("^a{2,}$", "", "aaaa", true),
        ("^a{2,}$", "", "a", false),
        ("^a{2,3}$", "", "aaaa", false),
        ("^a{2,3}$", "", "aaa", true),
        ("^a{0}$", "", "", true),
        ("^a{0}b$", "", "b", true),
        ("^a{0,0}b$", "", "ab", false),
        ("^(ab){2}$", "", "abab", true),
        ("^(ab){2}$", "", "ababab", false),
        ("^(a|bc){2,3}$", "", "bcabc", true),
        ("^(a|bc){2,3}$", "", "abcabc", false),
        ("^(a*){3,}$", "", "", true),
        ("^(a?){2,}b$", "", "aaab", true),
        ("a*?b", "", "aab", true),
        ("a+?", "", "a", true),
        ("a??b", "", "b", true),
        ("^a{2,3}?$", "", "aaa", true),
        ("^a{2,}?$", "", "a", false),
        ("a*+b", "", "aaab", true),
        ("a++b", "", "aab", true),
        ("a?+b", "", "ab", true),
        ("^a{2}+$", "", "aa", true),
        ("x{", "", "x{", true),
        ("x{a}", "", "x{a}", true),
        ("x{1,2", "", "x{1,2", true),
        ("x{,2}", "", "x{,2}", true),
        ("{", "", "{", true),
        ("^x{1}{", "", "x{", true),
        ("^.{4}$", "", "入门教程", true),
        ("^.{4}$", "", "入门教", false),
    ]

    static let caseInsensitive: [Case] = [
        ("abc", "i", "xABCx", true),
        ("ABC", "i", "abc", true),
        ("abc", "i", "ABD", false),
        ("[a-z]+", "i", "ABC", true),
        ("[A-Z]", "i", "q", true),
        ("[^a]", "i", "A", false),
        ("[^a]", "i", "b", true),
        ("é", "i", "É", true),
        ("[à-ä]", "i", "Á", true),
        ("σ", "i", "Σ", true),
        ("ς", "i", "Σ", true),
        ("Привет", "i", "ПРИВЕТ мир", true),
        ("入门", "i", "Swift入门", true),
        ("straße", "i", "STRASSE", false),
        ("\\x41", "i", "a", true),
        ("[[:upper:]]", "i", "a", true),
        ("\\w", "i", "A", true),
        ("(?i)swift", "", "SWIFT", true),
        ("(?i:sw)ift", "", "SWift", true),
        ("(?i:sw)ift", "", "SWIFT", false),
        ("a(?i)b", "", "aB", true),
        ("a(?i)b", "", "AB", false),
        ("(a(?i)b)c", "", "aBc", true),
        ("(a(?i)b)c", "", "aBC", false),
        ("(?i)a(?-i)b", "", "Ab", true),
        ("(?i)a(?-i)b", "", "AB", false),
        ("(?i-i)a", "", "A", false),
        ("(?^)a", "i", "A", false),
        ("a(?i)b|c", "", "C", true),
        ("\\Qa.B\\E", "i", "A.b", true),
    ]

    static let extended: [Case] = [
        ("a b c", "x", "abc", true),
        ("a b c", "", "abc", false),
        ("a b c", "", "a b c", true),
        ("a\\ b", "x", "a b", true),
        ("a[ ]b", "x", "a b", true),
        ("a # comment\nb", "x", "ab", true),
        ("a #c", "x", "a", true),
        ("^a +$", "x", "aaa", true),
        ("(?x) a b", "", "ab", true),
        ("(?x: a b ) c", "", "ab c", true),
        ("(?x: a b ) c", "", "abc", false),
        ("\\Q a \\E", "x", "x a y", true),
        ("a\\#b", "x", "a#b", true),
    ]

    static let unicode: [Case] = [
        (".*入门.*", "", "Swift入门教程", true),
        (".*入门.*", "", "Swift入教程", false),
        ("入门", "", "Swift入门教程", true),
        ("^Swift入门$", "", "Swift入门", true),
        ("入门$", "", "Swift入门教程", false),
        ("[入出]门", "", "出门", true),
        ("😀+", "", "😀😀", true),
        ("^.$", "", "😀", true),
        ("教程", "", "教", false),
        ("^\\w+入门", "", "Swift入门", true),
    ]

    /// Shapes the SDK produces for `whereKey(_:hasPrefix:)`, `hasSuffix` and `contains`: an escaped literal,
    /// anchored or not.
    static let sdkShapes: [Case] = [
        ("^Swift", "", "Swift入门教程", true),
        ("^Swift", "", "Learn Swift", false),
        ("@example\\.com$", "", "bob@example.com", true),
        ("@example\\.com$", "", "bob@exampleXcom", false),
        ("@example\\.com$", "", "bob@example.com.cn", false),
        ("@example\\.com$", "i", "BOB@EXAMPLE.COM", true),
        ("^C\\+\\+ \\(2nd ed\\.\\)", "", "C++ (2nd ed.) notes", true),
        ("^C\\+\\+ \\(2nd ed\\.\\)", "", "C (2nd ed.)", false),
        ("1\\+1=2", "", "so 1+1=2.", true),
        ("\\$9\\.99", "", "only $9.99", true),
    ]

    private func check(_ item: Case) throws {
        let regex = try BoundedRegex(pattern: item.pattern, options: item.options)
        #expect(
            regex.matches(item.text) == item.expected,
            "\(item.pattern) /\(item.options) on \(item.text.debugDescription)"
        )
    }

    @Test(arguments: literals) func literalsAndDot(_ item: Case) throws { try check(item) }
    @Test(arguments: classes) func characterClasses(_ item: Case) throws { try check(item) }
    @Test(arguments: escapes) func escapeSequences(_ item: Case) throws { try check(item) }
    @Test(arguments: anchors) func anchorsAndBoundaries(_ item: Case) throws { try check(item) }
    @Test(arguments: groups) func groupsAndAlternation(_ item: Case) throws { try check(item) }
    @Test(arguments: quantifiers) func quantifierForms(_ item: Case) throws { try check(item) }
    @Test(arguments: caseInsensitive) func caseInsensitiveMatching(_ item: Case) throws { try check(item) }
    @Test(arguments: extended) func extendedMode(_ item: Case) throws { try check(item) }
    @Test(arguments: unicode) func unicodeSubjects(_ item: Case) throws { try check(item) }
    @Test(arguments: sdkShapes) func sdkPatterns(_ item: Case) throws { try check(item) }

    @Test func compiledPatternIsReusableAcrossSubjects() throws {
        let regex = try BoundedRegex(pattern: "^[a-z]+\\d?$")
        #expect(regex.matches("abc1"))
        #expect(!regex.matches("abc12"))
        #expect(regex.matches("z"))
        #expect(!regex.matches(""))
    }

    @Test func optionsMayRepeatAndCombine() throws {
        let regex = try BoundedRegex(pattern: "^a.b$", options: "smis")
        #expect(regex.matches("x\nA\nB"))
    }
}
