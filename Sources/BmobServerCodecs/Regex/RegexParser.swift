import BmobWire

/// Parses a PCRE-syntax pattern into a ``RegexNode`` tree, counting as it goes the instructions the tree will
/// compile to, so that an oversized pattern is rejected before anything large is built.
///
/// Parsing is one pass over the pattern's scalars. Recursion only follows group nesting, which is capped at
/// ``BoundedRegex/maximumNestingDepth``; sizes are checked against ``BoundedRegex/maximumInstructionCount`` as
/// soon as a node is formed, so no intermediate value exceeds it by more than one node's worth.
struct RegexParser {
    /// A parsed piece: its node, its instruction count, and whether a quantifier may follow it.
    typealias Atom = (node: RegexNode, size: Int, repeatable: Bool)
    /// A parsed sequence or alternation and its instruction count.
    typealias Parsed = (node: RegexNode, size: Int)

    /// The pattern's scalars.
    let scalars: [Unicode.Scalar]
    /// UTF-8 byte offset of each scalar, plus the pattern's length at the end.
    let offsets: [Int]
    /// Index of the next scalar to read.
    var index = 0
    /// Options in force here.
    var flags: RegexFlags
    /// Groups open around ``index``.
    var depth = 0
    /// Inside `\Q…\E`, where every scalar is literal.
    var quoting = false
    /// Sets referred to by ``RegexNode/set(_:)``.
    var sets: [RegexScalarSet] = []

    /// Prepares to parse `pattern` with the flags from the options string.
    init(pattern: String, flags: RegexFlags) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for scalar in pattern.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.offsets = offsets
        self.flags = flags
    }

    /// Parses the whole pattern.
    ///
    /// - Returns: The tree and its instruction count, excluding the final ``RegexInstruction/match``.
    /// - Throws: ``BoundedRegexError`` for malformed, unsupported or oversized patterns.
    mutating func parse() throws(BoundedRegexError) -> Parsed {
        let parsed = try parseAlternation()
        if index < scalars.count {
            throw error("unmatched closing parenthesis", at: index)
        }
        return parsed
    }

    /// An error at the scalar `position`, reported as a byte offset.
    func error(_ message: String, at position: Int) -> BoundedRegexError {
        BoundedRegexError(message: message, offset: offsets[min(position, offsets.count - 1)])
    }

    /// The scalar at `position`, or `nil` past the end.
    func scalar(at position: Int) -> Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// Returns `size` if a program of that many instructions (plus the final match) fits the budget.
    func checked(_ size: Int, at position: Int) throws(BoundedRegexError) -> Int {
        guard size < BoundedRegex.maximumInstructionCount else {
            throw error(
                "pattern too large: more than \(BoundedRegex.maximumInstructionCount) instructions once expanded",
                at: position
            )
        }
        return size
    }

    // MARK: - Structure

    /// Branches separated by `|`, up to a `)` or the end.
    mutating func parseAlternation() throws(BoundedRegexError) -> Parsed {
        let start = index
        var branches: [RegexNode] = []
        var size = 0
        while true {
            let branch = try parseConcatenation()
            branches.append(branch.node)
            size = try checked(size + branch.size + (branches.count > 1 ? 2 : 0), at: start)
            guard !quoting, scalar(at: index) == "|" else { break }
            index += 1
        }
        return branches.count == 1 ? (branches[0], size) : (.alternation(branches), size)
    }

    /// Quantified atoms one after another, up to a `|`, a `)` or the end.
    mutating func parseConcatenation() throws(BoundedRegexError) -> Parsed {
        var items: [RegexNode] = []
        var size = 0
        while true {
            skipIgnored()
            guard let next = scalar(at: index) else { break }
            if !quoting && (next == "|" || next == ")") { break }
            let start = index
            guard let atom = try parseAtom() else { continue }
            let quantified = try parseQuantifier(after: atom)
            size = try checked(size + quantified.size, at: start)
            items.append(quantified.node)
        }
        switch items.count {
        case 0: return (.empty, 0)
        case 1: return (items[0], size)
        default: return (.concatenation(items), size)
        }
    }

    /// In `x` mode, skips white space and `#` comments (to the next line feed).
    mutating func skipIgnored() {
        guard flags.extended && !quoting else { return }
        while let next = scalar(at: index) {
            switch next {
            case " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{200E}", "\u{200F}", "\u{2028}", "\u{2029}":
                index += 1
            case "#":
                while let skipped = scalar(at: index), skipped != "\n" { index += 1 }
            default:
                return
            }
        }
    }

    /// One atom: a literal, `.`, a class, an escape, a group or an anchor. `nil` for constructs that match
    /// nothing by themselves (`(?i)`, `(?#…)`, `\Q`, `\E`).
    mutating func parseAtom() throws(BoundedRegexError) -> Atom? {
        let start = index
        let next = scalars[index]
        index += 1
        if quoting {
            if next == "\\" && scalar(at: index) == "E" {
                index += 1
                quoting = false
                return nil
            }
            return (literal(next), 1, true)
        }
        switch next {
        case "(":
            return try parseGroup(openedAt: start)
        case "[":
            return (try parseClass(openedAt: start), 1, true)
        case ".":
            return (.any(dotAll: flags.dotAll), 1, true)
        case "^":
            return (.assertion(flags.multiline ? .lineStart : .textStart), 1, false)
        case "$":
            return (.assertion(flags.multiline ? .lineEnd : .textEndOrFinalNewline), 1, false)
        case "*", "+", "?":
            throw error("quantifier does not follow a repeatable item", at: start)
        case "{":
            if try quantifierBounds(at: start) != nil {
                throw error("quantifier does not follow a repeatable item", at: start)
            }
            return (literal(next), 1, true)
        case "\\":
            return try parseEscape(at: start)
        default:
            return (literal(next), 1, true)
        }
    }

    /// A node matching `scalar`, or either of its case forms under the `i` flag.
    mutating func literal(_ scalar: Unicode.Scalar) -> RegexNode {
        guard flags.caseInsensitive else { return .scalar(scalar) }
        let variants = RegexScalarSet.caseVariants(of: scalar)
        guard variants.lower != scalar || variants.upper != scalar else { return .scalar(scalar) }
        let values = [scalar.value, variants.lower.value, variants.upper.value]
        return addSet(RegexScalarSet(ranges: values.map { $0...$0 }, caseInsensitive: true))
    }

    /// Stores `set` in the table and returns the node referring to it.
    mutating func addSet(_ set: RegexScalarSet) -> RegexNode {
        sets.append(set)
        return .set(sets.count - 1)
    }

    // MARK: - Quantifiers

    /// Applies the quantifier after `atom`, if any, with its lazy (`?`) or possessive (`+`) suffix; both are
    /// irrelevant to whether a match exists.
    mutating func parseQuantifier(after atom: Atom) throws(BoundedRegexError) -> Parsed {
        if quoting {
            // Inside \Q…\E a quantifier can only follow the closing \E.
            guard scalar(at: index) == "\\" && scalar(at: index + 1) == "E" else { return (atom.node, atom.size) }
            index += 2
            quoting = false
        }
        skipIgnored()
        let start = index
        guard let bounds = try quantifierBounds(at: start) else { return (atom.node, atom.size) }
        guard atom.repeatable else {
            throw error("quantifier does not follow a repeatable item", at: start)
        }
        index = bounds.end
        if let suffix = scalar(at: index), suffix == "?" || suffix == "+" { index += 1 }
        skipIgnored()
        if try quantifierBounds(at: index) != nil {
            throw error("nested quantifier", at: index)
        }
        let size = try checked(Self.repetitionSize(atom.size, min: bounds.min, max: bounds.max), at: start)
        return (.repetition(atom.node, min: bounds.min, max: bounds.max), size)
    }

    /// The quantifier starting at `position` (`*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`) and the index after it, or
    /// `nil` if there is none there. A `{` that does not form a count is a literal, as in PCRE.
    func quantifierBounds(at position: Int) throws(BoundedRegexError) -> (min: Int, max: Int?, end: Int)? {
        guard let first = scalar(at: position) else { return nil }
        switch first {
        case "*": return (0, nil, position + 1)
        case "+": return (1, nil, position + 1)
        case "?": return (0, 1, position + 1)
        case "{": break
        default: return nil
        }
        var cursor = position + 1
        guard let low = number(at: &cursor) else { return nil }
        var high: Int? = low
        if scalar(at: cursor) == "," {
            cursor += 1
            high = number(at: &cursor)
        }
        guard scalar(at: cursor) == "}" else { return nil }
        let limit = BoundedRegex.maximumRepetitionCount
        guard low <= limit, (high ?? 0) <= limit else {
            throw error("repetition count larger than \(limit)", at: position)
        }
        if let high, high < low {
            throw error("repetition range out of order (minimum above maximum)", at: position)
        }
        return (low, high, cursor + 1)
    }

    /// Decimal digits at `cursor`, advancing past them; values past the repetition limit saturate.
    private func number(at cursor: inout Int) -> Int? {
        var value: Int?
        while let digit = scalar(at: cursor), ("0"..."9").contains(digit) {
            value = min((value ?? 0) * 10 + Int(digit.value - 0x30), BoundedRegex.maximumRepetitionCount + 1)
            cursor += 1
        }
        return value
    }

    /// Instructions for an item of `size` instructions repeated `min` to `max` times, as
    /// ``RegexCompiler`` emits it.
    static func repetitionSize(_ size: Int, min: Int, max: Int?) -> Int {
        guard let max else {
            return min == 0 ? size + 2 : min * size + 1
        }
        return min * size + (max - min) * (size + 1)
    }

    // MARK: - Groups

    /// A group after its `(`: capturing, `(?:…)`, named, `(?|…)`, a comment, inline flags, or one of the
    /// unsupported PCRE extensions, which are rejected.
    mutating func parseGroup(openedAt open: Int) throws(BoundedRegexError) -> Atom? {
        let saved = flags
        if scalar(at: index) == "*" {
            throw error("backtracking control verbs such as (*…) are not supported", at: open)
        }
        if scalar(at: index) == "?" {
            index += 1
            guard let kind = scalar(at: index) else { throw error("missing closing parenthesis", at: open) }
            switch kind {
            case ":", "|":
                index += 1
            case "=", "!":
                throw error("lookahead assertions are not supported", at: open)
            case ">":
                throw error("atomic groups are not supported", at: open)
            case "(":
                throw error("conditional groups are not supported", at: open)
            case "C":
                throw error("callouts are not supported", at: open)
            case "R", "&", "+", "0"..."9":
                throw error("recursion and subroutine calls are not supported", at: open)
            case "#":
                while let skipped = scalar(at: index), skipped != ")" { index += 1 }
                guard index < scalars.count else { throw error("missing ) after comment", at: open) }
                index += 1
                return nil
            case "<":
                if let next = scalar(at: index + 1), next == "=" || next == "!" {
                    throw error("lookbehind assertions are not supported", at: open)
                }
                index += 1
                try parseGroupName(terminator: ">", openedAt: open)
            case "'":
                index += 1
                try parseGroupName(terminator: "'", openedAt: open)
            case "P":
                index += 1
                switch scalar(at: index) {
                case "<":
                    index += 1
                    try parseGroupName(terminator: ">", openedAt: open)
                case "=":
                    throw error("backreferences are not supported", at: open)
                case ">":
                    throw error("recursion and subroutine calls are not supported", at: open)
                default:
                    throw error("unknown group syntax after (?P", at: open)
                }
            default:
                if kind == "-", let next = scalar(at: index + 1), ("0"..."9").contains(next) {
                    throw error("recursion and subroutine calls are not supported", at: open)
                }
                // Inline flags: (?imsx-imsx) for the rest of the enclosing group, or (?imsx-imsx:…).
                guard try parseInlineFlags(openedAt: open) else { return nil }
            }
        }
        depth += 1
        guard depth <= BoundedRegex.maximumNestingDepth else {
            throw error("groups nested deeper than \(BoundedRegex.maximumNestingDepth)", at: open)
        }
        let inner = try parseAlternation()
        depth -= 1
        guard !quoting, scalar(at: index) == ")" else { throw error("missing closing parenthesis", at: open) }
        index += 1
        flags = saved
        return (inner.node, inner.size, true)
    }

    /// Reads a group name and its terminator; the name has no effect since nothing is captured.
    private mutating func parseGroupName(terminator: Unicode.Scalar, openedAt open: Int) throws(BoundedRegexError) {
        let start = index
        while let next = scalar(at: index),
            next == "_" || ("a"..."z").contains(next) || ("A"..."Z").contains(next)
                || (index > start && ("0"..."9").contains(next))
        {
            index += 1
        }
        guard index > start, index - start <= 32, scalar(at: index) == terminator else {
            throw error("invalid group name (letters, digits and _, not starting with a digit, up to 32)", at: open)
        }
        index += 1
    }

    /// Inline flag letters after `(?`, up to `)` or `:`.
    ///
    /// - Returns: `true` if a group body follows (`(?i:…)`), `false` if the flags apply to the rest of the
    ///   enclosing group (`(?i)`).
    private mutating func parseInlineFlags(openedAt open: Int) throws(BoundedRegexError) -> Bool {
        var updated = flags
        var enable = true
        if scalar(at: index) == "^" {
            updated = RegexFlags()
            index += 1
        }
        while true {
            guard let letter = scalar(at: index) else { throw error("missing closing parenthesis", at: open) }
            index += 1
            switch letter {
            case "i": updated.caseInsensitive = enable
            case "m": updated.multiline = enable
            case "s": updated.dotAll = enable
            case "x": updated.extended = enable
            case "n", "U", "J":
                // No capture numbering, ungreedy default, duplicate names: no effect on whether a match exists.
                break
            case "-" where enable:
                enable = false
            case ")":
                flags = updated
                return false
            case ":":
                flags = updated
                return true
            default:
                throw error("unknown inline flag or group syntax", at: index - 1)
            }
        }
    }
}
