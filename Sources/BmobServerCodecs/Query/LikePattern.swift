import BmobWire

/// Translates an SQL `LIKE` pattern into the regular expression of a
/// ``FieldConstraint/matchesRegex(pattern:options:)``.
///
/// `%` matches any run of characters, `_` any one character, and a backslash makes the next character literal
/// (`'100\%'`). Everything else is literal: regex metacharacters are escaped. The result is anchored at both
/// ends, except that a leading or trailing `%` drops that anchor instead of becoming `.*`: `'smile%'` is
/// `^smile`, `'%smile'` is `smile$`, `'%smile%'` is `smile`, `'a_c'` is `^a.c$`. When `_` or an inner `%`
/// puts a `.` in the pattern, the options are `s` so that it also matches line breaks, as in SQL.
package enum LikePattern {
    /// Characters escaped with a backslash in the regular expression.
    package static let metacharacters: Set<Character> = [
        "\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}",
    ]

    private enum Piece: Equatable {
        case literal(Character)
        case anyOne
        case anyRun
    }

    /// The regular expression and `$options` letters equivalent to `like`.
    package static func regex(fromLike like: String) -> (pattern: String, options: String) {
        var pieces: [Piece] = []
        var escaping = false
        for character in like {
            if escaping {
                pieces.append(.literal(character))
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%": if pieces.last != .anyRun { pieces.append(.anyRun) }
            case "_": pieces.append(.anyOne)
            default: pieces.append(.literal(character))
            }
        }
        if escaping { pieces.append(.literal("\\")) }
        let anchoredStart = pieces.first != .anyRun
        let anchoredEnd = pieces.last != .anyRun
        if !anchoredStart { pieces.removeFirst() }
        if !anchoredEnd, !pieces.isEmpty { pieces.removeLast() }
        var pattern = anchoredStart ? "^" : ""
        var usesDot = false
        for piece in pieces {
            switch piece {
            case .literal(let character):
                if metacharacters.contains(character) { pattern.append("\\") }
                pattern.append(character)
            case .anyOne:
                pattern.append(".")
                usesDot = true
            case .anyRun:
                pattern += ".*"
                usesDot = true
            }
        }
        if anchoredEnd { pattern.append("$") }
        return (pattern, usesDot ? "s" : "")
    }
}
