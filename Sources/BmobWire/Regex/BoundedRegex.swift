/// A regular expression for `$regex` and BQL `regexp` that matches in time linear in the subject length,
/// so one query cannot stall the server (no backtracking).
///
/// TEMPORARY: this placeholder supports literal substrings only; the linear-time engine replaces it.
package struct BoundedRegex: Sendable {
    /// Longest pattern accepted, in UTF-8 bytes.
    package static let maximumPatternLength = 1024

    private let literal: String
    private let caseInsensitive: Bool

    /// Compiles `pattern` (PCRE syntax subset) with `$options` letters (`i`, `m`, `s`, `x`).
    ///
    /// - Throws: ``BoundedRegexError`` for unsupported or malformed patterns and unknown options.
    package init(pattern: String, options: String = "") throws(BoundedRegexError) {
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw BoundedRegexError(message: "pattern longer than \(Self.maximumPatternLength) bytes", offset: 0)
        }
        literal = pattern
        caseInsensitive = options.contains("i")
    }

    /// Whether the pattern matches anywhere in `text` (use `^`/`$` to anchor).
    package func matches(_ text: String) -> Bool {
        caseInsensitive ? text.lowercased().contains(literal.lowercased()) : text.contains(literal)
    }
}

/// Why a pattern was rejected, and where.
package struct BoundedRegexError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    /// Byte offset into the pattern.
    package var offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    package var description: String { "\(message) at byte \(offset)" }
}
