import BmobWire

/// Translates a parsed ``RegexNode`` tree into a PostgreSQL advanced regular expression (ARE) that matches the
/// same subjects, for ``BoundedRegex/postgreSQLPattern``.
///
/// Everything the parser accepts is expressible, so translation cannot fail:
/// - Sets (classes, shorthands, case-insensitive literals) become bracket expressions of code-point ranges built
///   from ``RegexScalarSet/matchedRanges``, so case-insensitivity and negation are already applied and the ARE
///   needs no `i` flag and no locale-dependent class (`\w`, `[[:alpha:]]`); a negated bracket is used where it
///   is shorter. U+0000 and surrogate values are dropped: no PostgreSQL text contains them.
/// - `.` is `[^\n]`, or `.` under `s`; a set or literal that can only match U+0000 becomes ``never``.
/// - Assertions are PostgreSQL anchors and lookaround constraints (see ``assertion(_:)``).
/// - Counted repetition above PostgreSQL's bound of 255 is split into concatenated, possibly grouped counts,
///   and a nullable item is repeated through its non-empty form (``RegexNode/nonEmpty``).
struct RegexPostgreSQLTranslator {
    /// PostgreSQL's largest repetition bound (`RE_DUPMAX`).
    static let maximumBound = 255
    /// `[A-Za-z0-9_]`, the word scalars of `\b` and `\B`, spelled out because PostgreSQL's `\w` follows the
    /// database locale.
    static let word = "[0-9A-Z_a-z]"
    /// Any scalar outside ``word`` (in PostgreSQL's default mode a negated bracket matches a line feed too).
    static let nonWord = "[^0-9A-Z_a-z]"

    /// A bracket matching no scalar a PostgreSQL text can hold (only U+0000 and surrogate values are outside
    /// it): what an empty set, or one matching only U+0000, becomes. A consuming atom rather than a constraint
    /// such as `(?!)`, so it can be repeated and costs PostgreSQL nothing special.
    static let never = RegexPostgreSQLPiece(text: "[^\\u0001-\\U0010FFFF]", kind: .atom)

    /// The parser's set table.
    let sets: [RegexScalarSet]

    /// The ARE for the whole of `node`, with a bare `^` for a leading `\A` (or `^` without `m`), which
    /// PostgreSQL uses to anchor the search.
    func pattern(for node: RegexNode) -> String {
        if case .concatenation(let items) = node, case .assertion(.textStart)? = items.first {
            return "^" + items.dropFirst().map { translate($0).concatenable }.joined()
        }
        if case .assertion(.textStart) = node { return "^" }
        return translate(node).text
    }

    /// The fragment for `node`.
    func translate(_ node: RegexNode) -> RegexPostgreSQLPiece {
        switch node {
        case .empty:
            return RegexPostgreSQLPiece(text: "", kind: .sequence)
        case .scalar(let scalar):
            return scalarSet(RegexPostgreSQLEscaping.restrictedToText([scalar.value...scalar.value]))
        case .set(let index):
            return scalarSet(RegexPostgreSQLEscaping.restrictedToText(sets[index].matchedRanges))
        case .any(let dotAll):
            return RegexPostgreSQLPiece(text: dotAll ? "." : "[^\\n]", kind: .atom)
        case .assertion(let assertion):
            return Self.assertion(assertion)
        case .concatenation(let items):
            let text = items.map { translate($0).concatenable }.joined()
            return RegexPostgreSQLPiece(text: text, kind: .sequence)
        case .alternation(let branches):
            let text = branches.map { translate($0).text }.joined(separator: "|")
            return RegexPostgreSQLPiece(text: text, kind: .alternation)
        case .repetition(let inner, let min, let max):
            guard inner.isNullable else { return repetition(translate(inner), min: min, max: max) }
            // x{m,n} with x nullable is x'{0,n}, x' being x without its empty match (see RegexNode.nonEmpty).
            guard max != 0, let consuming = inner.nonEmpty else {
                return RegexPostgreSQLPiece(text: "", kind: .sequence)
            }
            return repetition(translate(consuming), min: 0, max: max)
        }
    }

    /// A fragment matching one scalar from `ranges` (sorted, disjoint, within the text scalars): never for none,
    /// the escaped scalar for one, `.` for all of them, else the shorter of the bracket and its negation (in
    /// PostgreSQL's default mode, which `~` uses, a negated bracket matches a line feed too).
    func scalarSet(_ ranges: [ClosedRange<UInt32>]) -> RegexPostgreSQLPiece {
        guard let first = ranges.first else { return Self.never }
        if ranges.count == 1 && first.lowerBound == first.upperBound {
            return RegexPostgreSQLPiece(text: RegexPostgreSQLEscaping.character(first.lowerBound), kind: .atom)
        }
        let complement = RegexPostgreSQLEscaping.textComplement(ranges)
        if complement.isEmpty {
            return RegexPostgreSQLPiece(text: ".", kind: .atom)
        }
        let text =
            complement.count < ranges.count
            ? "[^" + RegexPostgreSQLEscaping.bracketBody(complement) + "]"
            : "[" + RegexPostgreSQLEscaping.bracketBody(ranges) + "]"
        return RegexPostgreSQLPiece(text: text, kind: .atom)
    }

    /// The constraint for `assertion`: always one positive lookahead, whatever it holds inside.
    ///
    /// In PostgreSQL's default mode `^` and `$` hold only at the ends of the subject, also inside a lookahead,
    /// and lookaround may hold anything but back-references, nested lookaround included. The forms are chosen
    /// for PostgreSQL's compiler, not only for their meaning: it moves bare `^`/`$` constraints and sequences or
    /// negations of lookaround through the NFA, which multiplies states when such constraints sit in
    /// alternations inside a repetition (`(?m)(?:^.*$\n){50}` already failed with "regular expression is too
    /// complex"), while a single positive lookahead stays one arc. (``pattern(for:)`` keeps a bare `^` at the
    /// very start, where it is harmless and lets PostgreSQL anchor the search.)
    /// - `\A`, `^`: `(?=^)`; `\z`: `(?=$)`; `\Z`, `$`: `(?=\n?$)`.
    /// - `^` under `m`: `(?=^|(?<=\n).)`, since PCRE's does not hold after a final line feed.
    /// - `$` under `m`: `(?=\n|$)`.
    /// - `\b`: a word scalar next with none before, or one before and a non-word scalar or the end next;
    ///   `\B` the other two combinations.
    static func assertion(_ assertion: RegexAssertion) -> RegexPostgreSQLPiece {
        let text: String
        switch assertion {
        case .textStart: text = "(?=^)"
        case .textEnd: text = "(?=$)"
        case .textEndOrFinalNewline: text = "(?=\\n?$)"
        case .lineStart: text = "(?=^|(?<=\\n).)"
        case .lineEnd: text = "(?=\\n|$)"
        case .wordBoundary: text = "(?=(?<!\(word))\(word)|(?<=\(word))(?:\(nonWord)|$))"
        case .notWordBoundary: text = "(?=(?<=\(word))\(word)|(?<!\(word))(?:\(nonWord)|$))"
        }
        return RegexPostgreSQLPiece(text: text, kind: .constraint)
    }

    /// `inner` repeated `min` to `max` (`nil`: unbounded) times.
    ///
    /// Bounds up to 255 map to one quantifier. Larger ones are split into chunks of at most 255 whose minimums
    /// add up to `min` and maximums to `max` (a concatenation of `x{a,b}` and `x{c,d}` matches exactly the runs of
    /// `a+c` to `b+d` copies), and equal neighbouring chunks are grouped, as in `(?:x{255}){3}x{235}` for
    /// `x{1000}`. PostgreSQL expands counted repetition into copies, as ``RegexCompiler`` does, so the ARE's size
    /// stays proportional to the program's.
    func repetition(_ inner: RegexPostgreSQLPiece, min: Int, max: Int?) -> RegexPostgreSQLPiece {
        let bound = Self.maximumBound
        let item = inner.quantifiable
        var chunks: [(min: Int, max: Int?)] = []
        if let max, max > bound {
            var remainingMin = min
            var remainingMax = max
            while remainingMax > 0 {
                let chunkMax = Swift.min(bound, remainingMax)
                let chunkMin = Swift.min(chunkMax, remainingMin)
                chunks.append((chunkMin, chunkMax))
                remainingMax -= chunkMax
                remainingMin -= chunkMin
            }
        } else if max == nil && min > bound {
            chunks = Array(repeating: (bound, bound), count: min / bound)
            chunks.append((min % bound, nil))
        } else {
            return RegexPostgreSQLPiece(text: item + Self.quantifier(min: min, max: max), kind: .sequence)
        }
        var text = ""
        var index = 0
        while index < chunks.count {
            var end = index + 1
            while end < chunks.count && chunks[end] == chunks[index] { end += 1 }
            let quantified = item + Self.quantifier(min: chunks[index].min, max: chunks[index].max)
            let copies = end - index
            text += copies == 1 ? quantified : "(?:" + quantified + ")" + Self.quantifier(min: copies, max: copies)
            index = end
        }
        return RegexPostgreSQLPiece(text: text, kind: .sequence)
    }

    /// The ARE quantifier for `min` to `max` (`nil`: unbounded), both at most 255 except an unbounded maximum;
    /// none for exactly once.
    static func quantifier(min: Int, max: Int?) -> String {
        switch (min, max) {
        case (1, 1?): return ""
        case (0, nil): return "*"
        case (1, nil): return "+"
        case (0, 1?): return "?"
        case (_, nil): return "{\(min),}"
        case (_, let max?) where max == min: return "{\(min)}"
        case (_, let max?): return "{\(min),\(max)}"
        }
    }
}
