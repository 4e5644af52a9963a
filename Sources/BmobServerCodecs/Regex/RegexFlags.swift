import BmobWire

/// The matching options in force at one point of a pattern: set by the options string and changed by inline
/// flags such as `(?i)` or `(?-s:…)`.
struct RegexFlags: Sendable, Equatable {
    /// `i`: letters match their simple upper- and lowercase forms.
    var caseInsensitive = false
    /// `m`: `^` and `$` also match at line boundaries.
    var multiline = false
    /// `s`: `.` also matches a line feed.
    var dotAll = false
    /// `x`: unescaped whitespace and `#` comments outside classes are ignored.
    var extended = false

    /// No option set (also what `(?^)` restores).
    init() {}

    /// Flags from a `$options` string.
    ///
    /// - Throws: ``BoundedRegexError`` for a letter other than `i`, `m`, `s` or `x`, with the letter's byte offset in
    ///   `options`.
    init(options: String) throws(BoundedRegexError) {
        var offset = 0
        for scalar in options.unicodeScalars {
            switch scalar {
            case "i": caseInsensitive = true
            case "m": multiline = true
            case "s": dotAll = true
            case "x": extended = true
            default:
                throw BoundedRegexError(
                    message: "unknown regex option '\(scalar.escaped(asASCII: true))' (allowed: i, m, s, x)",
                    offset: offset
                )
            }
            offset += UTF8.width(scalar)
        }
    }
}
