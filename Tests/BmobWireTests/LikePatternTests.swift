import BmobWire
import Testing
import BmobServerCodecs

/// SQL `LIKE` to regular expression translation, and the names ``QueryPath`` accepts.
@Suite struct LikePatternTests {
    @Test(arguments: [
        ("smile%", "^smile", ""),
        ("%smile", "smile$", ""),
        ("%smile%", "smile", ""),
        ("smile", "^smile$", ""),
        ("a_c", "^a.c$", "s"),
        ("a%c", "^a.*c$", "s"),
        ("a%%%c", "^a.*c$", "s"),
        ("%", "", ""),
        ("", "^$", ""),
        ("1+1=2?", #"^1\+1=2\?$"#, ""),
        ("a.b*c[d](e){f}|g^h$i\\\\j", #"^a\.b\*c\[d\]\(e\)\{f\}\|g\^h\$i\\j$"#, ""),
        (#"100\%"#, "^100%$", ""),
        (#"a\_b"#, "^a_b$", ""),
        (#"end\"#, #"^end\\$"#, ""),
        ("你_", "^你.$", "s"),
    ])
    func translations(like: String, pattern: String, options: String) {
        let result = LikePattern.regex(fromLike: like)
        #expect(result.pattern == pattern)
        #expect(result.options == options)
    }

    @Test func fieldPaths() {
        for valid in ["a", "objectId", "createdAt", "address.city", "list.0.name", "a_1.B2"] {
            #expect(QueryPath.isValidFieldPath(valid), "\(valid)")
        }
        for invalid in ["", "1a", "_a", "a.", ".a", "a..b", "a b", "a-b", "0", "a.$b", "a.1234567890"] {
            #expect(!QueryPath.isValidFieldPath(invalid), "\(invalid)")
        }
        #expect(!QueryPath.isValidFieldPath(Array(repeating: "a", count: 17).joined(separator: ".")))
        #expect(QueryPath.isValidAggregateName("_sumScore"))
        #expect(QueryPath.isValidAggregateName("_count"))
        #expect(!QueryPath.isValidAggregateName("_"))
        #expect(!QueryPath.isValidAggregateName("sum"))
        #expect(QueryPath.isValidResultPath("_avgScore") && QueryPath.isValidResultPath("score"))
    }

    @Test func includePaths() {
        for valid in ["post", "post.author", "post[likes].author[username|email]", "a[b]"] {
            #expect(QueryPath.isValidInclude(valid), "\(valid)")
        }
        for invalid in ["", "post.", "post[", "post[]", "post[a|]", "post]a", "post[a]b", "1post", "a..b"] {
            #expect(!QueryPath.isValidInclude(invalid), "\(invalid)")
        }
    }
}
