import BmobWire

/// A regular expression for `$regex` and BQL `regexp` that matches in time linear in the subject length, so one
/// query cannot stall the server.
///
/// The pattern (a PCRE subset) is parsed into a tree and compiled to a Thompson NFA, which a Pike VM runs over
/// the subject's Unicode scalars with one thread per instruction at most: matching is O(pattern × subject) time
/// and O(pattern) memory, with no backtracking. Compiling is bounded too: the pattern is at most
/// ``maximumPatternLength`` bytes, counted repetition at most ``maximumRepetitionCount``, groups nest at most
/// ``maximumNestingDepth`` deep, and the program after expanding counted repetition is at most
/// ``maximumInstructionCount`` instructions; anything larger is rejected before it is built. Linear is still
/// program × subject: a 4,000-instruction program over a 1 MB subject is billions of steps, so callers that match
/// untrusted subjects use ``evaluate(_:stepLimit:)``, which gives up after a number of steps.
///
/// Supported: literals, `.`, classes (`[a-z]`, `[^…]`, escapes and `[:alpha:]`-style POSIX names inside),
/// `\d \D \w \W \s \S \h \H \v \V` (ASCII, as PCRE without UCP; `\v` is vertical white space, which includes
/// U+000B), `\N`, `\b \B`, `\t \n \r \f \e \a \cX \0oo \o{…} \xHH \x{H…} \uHHHH`, escaped punctuation,
/// `\Q…\E`, anchors `^ $ \A \z \Z`, groups `(…)`, `(?:…)`, `(?<name>…)`, `(?P<name>…)`, `(?'name'…)`, `(?|…)`
/// (all non-capturing in effect), comments `(?#…)`, inline flags `(?imsx-imsx)` and `(?imsx-imsx:…)`,
/// alternation, and the quantifiers `* + ? {m} {m,} {m,n}` with their lazy `?` forms (equal to the greedy ones
/// for whether a match exists) and possessive `+` forms. A `{` that does not start a count is a literal, as in
/// PCRE (so is `{,n}`, as in PCRE before 10.43).
///
/// Possessive quantifiers are matched as greedy ones, since giving up backtracking is not expressible in an
/// automaton: where PCRE's refusal to give back matters (`a++a`), this reports a match that PCRE does not.
///
/// Rejected with a ``BoundedRegexError``: backreferences, lookaround, atomic and conditional groups, recursion,
/// callouts, backtracking verbs, `\G \K \p \P \X \R \C`, and malformed patterns.
///
/// Options (`$options` letters): `i` case-insensitive, `m` multiline anchors, `s` dot matches a line feed, `x`
/// extended (unescaped white space and `#` comments outside classes are ignored). Case-insensitive matching
/// uses simple one-to-one case mappings (exact for ASCII, Latin, Greek and Cyrillic), not full case folding, so
/// `ß` does not match `SS`. Only the line feed ends a line, as in PCRE's default.
///
/// ## Topics
/// ### Compiling
/// - ``init(pattern:options:)``
/// - ``maximumPatternLength``
/// - ``maximumInstructionCount``
/// - ``maximumRepetitionCount``
/// - ``maximumNestingDepth``
/// ### Matching
/// - ``matches(_:)``
/// - ``evaluate(_:stepLimit:)``
/// - ``instructionCount``
package struct BoundedRegex: Sendable {
    /// Longest pattern accepted, in UTF-8 bytes.
    package static let maximumPatternLength = 1024
    /// Largest compiled program, in instructions, once counted repetition is expanded; the per-scalar cost of
    /// matching is proportional to it.
    package static let maximumInstructionCount = 20_000
    /// Largest count in `{m}`, `{m,}` and `{m,n}`.
    package static let maximumRepetitionCount = 1000
    /// Deepest nesting of groups.
    package static let maximumNestingDepth = 100

    /// The compiled pattern.
    private let program: RegexProgram
    /// The parsed tree, kept so that other dialects (``postgreSQLPattern``) translate the resolved structure, not
    /// the text.
    let node: RegexNode
    /// The set table that ``node`` refers to.
    let sets: [RegexScalarSet]

    /// Compiles `pattern` (PCRE syntax subset) with `$options` letters (`i`, `m`, `s`, `x`).
    ///
    /// Takes time and memory linear in the pattern length plus the expanded program, which are both bounded.
    ///
    /// - Parameters:
    ///   - pattern: The regular expression, at most ``maximumPatternLength`` UTF-8 bytes.
    ///   - options: Option letters, in any order; repeats are allowed.
    /// - Throws: ``BoundedRegexError`` for unknown options and for malformed, unsupported or oversized patterns,
    ///   with the byte offset of the offending construct.
    package init(pattern: String, options: String = "") throws(BoundedRegexError) {
        let flags = try RegexFlags(options: options)
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw BoundedRegexError(
                message: "pattern longer than \(Self.maximumPatternLength) bytes",
                offset: Self.maximumPatternLength
            )
        }
        var parser = RegexParser(pattern: pattern, flags: flags)
        let parsed = try parser.parse()
        program = RegexCompiler.compile(parsed.node, size: parsed.size, sets: parser.sets)
        node = parsed.node
        sets = parser.sets
    }

    /// Whether the pattern matches anywhere in `text` (use `^`/`$` or `\A`/`\z` to anchor).
    ///
    /// Runs in O(``instructionCount`` × scalars of `text`) time and O(``instructionCount``) memory, and never
    /// backtracks.
    ///
    /// - Parameter text: The subject, read as Unicode scalars.
    /// - Returns: `true` if some substring of `text` matches, with PCRE's meaning of anchors and flags.
    package func matches(_ text: String) -> Bool {
        evaluate(text, stepLimit: .max).matched ?? false
    }

    /// Whether the pattern matches anywhere in `text`, giving up after about `stepLimit` steps.
    ///
    /// A step is one program instruction visited, or one live thread tested against a scalar; matching a
    /// subject takes at most 2 × ``instructionCount`` steps per scalar, and usually a few. The limit is
    /// checked after each scalar, so the work done is at most `stepLimit` plus one scalar's worth.
    ///
    /// - Parameters:
    ///   - text: The subject, read as Unicode scalars.
    ///   - stepLimit: The most steps to take; the answer is `nil` when they run out before it is known.
    /// - Returns: The answer (or `nil`) and the steps taken, for the caller's wider budget.
    package func evaluate(_ text: String, stepLimit: Int) -> RegexEvaluation {
        var iterator = text.unicodeScalars.makeIterator()
        return program.evaluate(&iterator, stepLimit: stepLimit)
    }

    /// Length of the compiled program, final match included: the factor that, times the subject length, bounds
    /// the work of ``matches(_:)``.
    package var instructionCount: Int { program.instructions.count }
}
