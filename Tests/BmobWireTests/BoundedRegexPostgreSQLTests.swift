import BmobWire
import Testing
import BmobServerCodecs

/// ``BoundedRegex/postgreSQLPattern`` on representative patterns: the exact ARE text for PostgreSQL's `~`.
///
/// The meaning of these translations was checked against PostgreSQL 15 on the differential corpus in
/// `Tests/BmobStoreTests/Fixtures/regex-corpus.json` (and on random patterns); these tests pin the text so that
/// a change to the translation is a deliberate one.
@Suite struct BoundedRegexPostgreSQLTests {
    typealias Case = (pattern: String, options: String, expected: String)

    static let word = "[0-9A-Z_a-z]"
    static let boundary = "(?=(?<!\(word))\(word)|(?<=\(word))(?:[^0-9A-Z_a-z]|$))"
    static let notBoundary = "(?=(?<=\(word))\(word)|(?<!\(word))(?:[^0-9A-Z_a-z]|$))"

    static let literals: [Case] = [
        ("abc", "", "abc"),
        ("", "", ""),
        ("a b_1", "", "a b_1"),
        ("a\\.b\\*c\\?", "", "a\\.b\\*c\\?"),
        ("\\$\\^\\[\\]\\\\\\-\\/\\{\\}\\(\\)\\|\\+", "", "\\$\\^\\[\\]\\\\\\-\\/\\{\\}\\(\\)\\|\\+"),
        ("'\"#`~", "", "\\'\\\"\\#\\`\\~"),
        ("a{,3}", "", "a\\{\\,3\\}"),
        ("\\t\\n\\r\\f\\e\\x7F", "", "\\t\\n\\r\\u000C\\u001B\\u007F"),
        ("é入😀", "", "\\u00E9\\u5165\\U0001F600"),
        ("\\x{10FFFF}", "", "\\U0010FFFF"),
        ("\\Qa.b\\E", "", "a\\.b"),
        ("a b # comment\n c", "x", "abc"),
    ]

    static let sets: [Case] = [
        ("[abc]", "", "[a-c]"),
        ("[ac]", "", "[ac]"),
        ("[ab]", "", "[ab]"),
        ("[^abc]", "", "[^a-c]"),
        ("[a\\-z]", "", "[\\-az]"),
        ("[]^\\\\[]", "", "[\\[-\\^]"),
        ("[\\d.]", "", "[\\.0-9]"),
        ("[[:punct:]]", "", "[\\!-\\/\\:-\\@\\[-\\`\\{-\\~]"),
        ("\\s", "", "[\\t-\\r ]"),
        ("\\W", "", "[^0-9A-Z_a-z]"),
        ("[一-龥]", "", "[\\u4E00-\\u9FA5]"),
        ("[😀-😂]", "", "[\\U0001F600-\\U0001F602]"),
        ("[\\s\\S]", "", "."),
        ("[^\\x00]", "", "."),
        ("[\\x{D7FF}-\\x{E000}]", "", "[\\uD7FF\\uE000]"),
        ("\\x00", "", "[^\\u0001-\\U0010FFFF]"),
        ("[^\\x00-\\x{10FFFF}]", "", "[^\\u0001-\\U0010FFFF]"),
    ]

    static let caseInsensitive: [Case] = [
        ("k", "i", "[Kk\\u212A]"),
        ("\\x{212A}", "i", "[Kk\\u212A]"),
        ("\\x{212A}", "", "\\u212A"),
        ("abc", "i", "[Aa][Bb][Cc]"),
        ("a(?i)b(?-i)c", "", "a[Bb]c"),
        ("σ", "i", "[\\u03A3\\u03C2\\u03C3]"),
        ("ς", "i", "[\\u03A3\\u03C2\\u03C3]"),
        ("ı", "i", "[Ii\\u0131]"),
        ("İ", "i", "\\u0130"),
        ("ſ", "i", "[Ss\\u017F]"),
        ("ß", "i", "\\u00DF"),
        ("[a-z]", "i", "[A-Za-z\\u212A]"),
        ("[^a]", "i", "[^Aa]"),
        ("[^k]", "i", "[^Kk\\u212A]"),
        ("1", "i", "1"),
    ]

    static let dotsAndAnchors: [Case] = [
        ("a.c", "", "a[^\\n]c"),
        ("a.c", "s", "a.c"),
        ("(?s:.)\\N", "", ".[^\\n]"),
        ("^abc$", "", "^abc(?=\\n?$)"),
        ("\\Aa\\z", "", "^a(?=$)"),
        ("^", "", "^"),
        ("a^b", "", "a(?=^)b"),
        ("(?:^|x)a", "", "(?:(?=^)|x)a"),
        ("a\\Z", "", "a(?=\\n?$)"),
        ("^a$", "m", "(?=^|(?<=\\n).)a(?=\\n|$)"),
        ("\\bfoo\\b", "", boundary + "foo" + boundary),
        ("\\B", "", notBoundary),
        ("(?:^)*a", "", "(?:(?=^))*a"),
    ]

    static let structure: [Case] = [
        ("a|b(?:c|d)", "", "a|b(?:c|d)"),
        ("(?:ab)+c*d?", "", "(?:ab)+c*d?"),
        ("x{2}y{2,}z{2,5}", "", "x{2}y{2,}z{2,5}"),
        ("(a|b)*", "", "(?:a|b)*"),
        ("a{1}", "", "a"),
        ("a{255}", "", "a{255}"),
        ("a{1000}", "", "(?:a{255}){3}a{235}"),
        ("a{256}", "", "a{255}a"),
        ("a{300,}", "", "a{255}a{45,}"),
        ("a{765,}", "", "(?:a{255}){3}a*"),
        ("a{3,700}", "", "a{3,255}a{0,255}a{0,190}"),
        ("(?:ab){0,1000}", "", "(?:(?:ab){0,255}){3}(?:ab){0,235}"),
        ("(?:a*)*", "", "(?:a+)*"),
        ("(?:a?b?){300}", "", "(?:ab?|b){0,255}(?:ab?|b){0,45}"),
        ("(?:a|){3}", "", "a{0,3}"),
        ("(?:)*x", "", "x"),
        ("a(?:){1000}b", "", "ab"),
        ("(?:\\b|a?){2}", "", "(?:" + boundary + "|a){0,2}"),
    ]

    @Test(arguments: literals + sets + caseInsensitive + dotsAndAnchors + structure)
    func translation(_ example: Case) throws {
        let regex = try BoundedRegex(pattern: example.pattern, options: example.options)
        #expect(regex.postgreSQLPattern == example.expected, "\(example.pattern) /\(example.options)")
    }

    /// No counted repetition above PostgreSQL's bound of 255 survives, however it is nested.
    @Test func boundsStayWithinPostgreSQLLimit() throws {
        for pattern in ["a{1000}", "(?:a{999}){20}", "(?:(?:ab){0,600}c){1,10}", "x{1000,}", "(?:a?){1000}"] {
            let translated = try BoundedRegex(pattern: pattern).postgreSQLPattern
            var bounds: [Int] = []
            var digits = ""
            for character in translated {
                if character.isASCII && character.isNumber {
                    digits.append(character)
                } else {
                    if let value = Int(digits) { bounds.append(value) }
                    digits = ""
                }
            }
            #expect(bounds.allSatisfy { $0 <= 255 }, "\(pattern) → \(translated)")
        }
    }
}
