import BmobWire
import Testing
import BmobServerCodecs

/// ``BoundedRegex`` against a small reference on random patterns and subjects from a seeded generator.
///
/// The reference works on the syntax tree it generated, by the textbook meaning of a regular expression: the
/// set of subject offsets where a node can end when it starts at a given offset. That answers "does the pattern
/// match anywhere" independently of how ``BoundedRegex`` parses and runs the rendered pattern.
@Suite struct BoundedRegexDifferentialTests {
    /// A random pattern's syntax tree (literals, `.`, concatenation, alternation, counted and open repetition).
    indirect enum Node {
        case literal(Character)
        case dot
        case sequence([Node])
        case choice([Node])
        case repeated(Node, min: Int, max: Int?)

        /// PCRE text for the node; `lazy` picks the `?` suffix on quantifiers.
        func rendered(using generator: inout SplitMix64) -> String {
            switch self {
            case .literal(let character):
                return String(character)
            case .dot:
                return "."
            case .sequence(let items):
                return items.map { $0.grouped(using: &generator) }.joined()
            case .choice(let branches):
                return branches.map { $0.rendered(using: &generator) }.joined(separator: "|")
            case .repeated(let inner, let min, let max):
                let quantifier: String
                switch (min, max) {
                case (0, nil): quantifier = "*"
                case (1, nil): quantifier = "+"
                case (0, 1?) where Bool.random(using: &generator): quantifier = "?"
                case (_, nil): quantifier = "{\(min),}"
                case (_, let max?) where max == min && Bool.random(using: &generator): quantifier = "{\(min)}"
                case (_, let max?): quantifier = "{\(min),\(max)}"
                }
                let suffix = Int.random(in: 0..<4, using: &generator) == 0 ? "?" : ""
                return inner.atom(using: &generator) + quantifier + suffix
            }
        }

        /// The node as something a quantifier can follow.
        private func atom(using generator: inout SplitMix64) -> String {
            switch self {
            case .literal, .dot: return rendered(using: &generator)
            default: return wrapped(rendered(using: &generator), using: &generator)
            }
        }

        /// The node inside a sequence: alternations need a group there.
        private func grouped(using generator: inout SplitMix64) -> String {
            if case .choice = self { return wrapped(rendered(using: &generator), using: &generator) }
            return rendered(using: &generator)
        }

        /// A capturing, non-capturing or named group around `text`.
        private func wrapped(_ text: String, using generator: inout SplitMix64) -> String {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return "(" + text + ")"
            case 1: return "(?:" + text + ")"
            default: return "(?<g>" + text + ")"
            }
        }

        /// Offsets where the node can end when it starts at `start` in `text`; `fold` compares case-insensitively.
        func ends(from start: Int, in text: [Character], fold: Bool) -> Set<Int> {
            switch self {
            case .literal(let character):
                guard start < text.count else { return [] }
                let equal = fold ? text[start].lowercased() == character.lowercased() : text[start] == character
                return equal ? [start + 1] : []
            case .dot:
                return start < text.count && text[start] != "\n" ? [start + 1] : []
            case .sequence(let items):
                var positions: Set<Int> = [start]
                for item in items {
                    var advanced: Set<Int> = []
                    for position in positions { advanced.formUnion(item.ends(from: position, in: text, fold: fold)) }
                    positions = advanced
                }
                return positions
            case .choice(let branches):
                var positions: Set<Int> = []
                for branch in branches { positions.formUnion(branch.ends(from: start, in: text, fold: fold)) }
                return positions
            case .repeated(let inner, let min, let max):
                // Past min + text.count rounds, any further round only repeats an empty match, so stop there.
                let rounds = max ?? (min + text.count)
                var frontier: Set<Int> = [start]
                var result: Set<Int> = min == 0 ? [start] : []
                for round in 1...Swift.max(rounds, 1) where rounds > 0 {
                    var advanced: Set<Int> = []
                    for position in frontier { advanced.formUnion(inner.ends(from: position, in: text, fold: fold)) }
                    frontier = advanced
                    if round >= min { result.formUnion(frontier) }
                    if frontier.isEmpty { break }
                }
                return result
            }
        }

        /// Whether the node matches somewhere in `text`.
        func matchesSomewhere(_ text: [Character], fold: Bool) -> Bool {
            (0...text.count).contains { !ends(from: $0, in: text, fold: fold).isEmpty }
        }
    }

    /// A random tree of at most `depth` levels over the letters a, b and c.
    static func randomNode(depth: Int, using generator: inout SplitMix64) -> Node {
        let letters: [Character] = ["a", "b", "c", "A"]
        let kind = depth == 0 ? Int.random(in: 0..<2, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch kind {
        case 0:
            return .literal(letters[Int.random(in: 0..<letters.count, using: &generator)])
        case 1:
            return Int.random(in: 0..<5, using: &generator) == 0
                ? .dot : .literal(letters[Int.random(in: 0..<3, using: &generator)])
        case 2, 3:
            let count = Int.random(in: 2...4, using: &generator)
            return .sequence((0..<count).map { _ in randomNode(depth: depth - 1, using: &generator) })
        case 4:
            let count = Int.random(in: 2...3, using: &generator)
            return .choice((0..<count).map { _ in randomNode(depth: depth - 1, using: &generator) })
        default:
            let inner = randomNode(depth: depth - 1, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return .repeated(inner, min: 0, max: nil)
            case 1: return .repeated(inner, min: 1, max: nil)
            case 2: return .repeated(inner, min: 0, max: 1)
            case 3:
                let min = Int.random(in: 0...3, using: &generator)
                return .repeated(inner, min: min, max: nil)
            default:
                let min = Int.random(in: 0...3, using: &generator)
                return .repeated(inner, min: min, max: min + Int.random(in: 0...2, using: &generator))
            }
        }
    }

    /// A random subject of up to eight scalars over a, b, c, A and a line feed.
    static func randomText(using generator: inout SplitMix64) -> [Character] {
        let alphabet: [Character] = ["a", "b", "c", "A", "a", "b", "\n"]
        let length = Int.random(in: 0...8, using: &generator)
        return (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4]) func agreesWithReference(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var compared = 0
        var matched = 0
        for _ in 0..<400 {
            let node = Self.randomNode(depth: 4, using: &generator)
            let pattern = node.rendered(using: &generator)
            let caseInsensitive = Int.random(in: 0..<4, using: &generator) == 0
            let regex: BoundedRegex
            do {
                regex = try BoundedRegex(pattern: pattern, options: caseInsensitive ? "i" : "")
            } catch {
                Issue.record("\(pattern) rejected: \(error)")
                continue
            }
            for _ in 0..<12 {
                let text = Self.randomText(using: &generator)
                let expected = node.matchesSomewhere(text, fold: caseInsensitive)
                let actual = regex.matches(String(text))
                #expect(
                    actual == expected,
                    "\(pattern) /\(caseInsensitive ? "i" : "") on \(String(text).debugDescription)"
                )
                compared += 1
                if expected { matched += 1 }
            }
        }
        // Both answers are well represented, so agreement is not vacuous.
        #expect(matched > compared / 10 && matched < compared * 9 / 10)
    }

    @Test func anchoredVariantsAgreeWithReference() throws {
        // Anchoring both ends turns "matches somewhere" into "matches all of it", which checks the ends too.
        var generator = SplitMix64(seed: 99)
        for _ in 0..<400 {
            let node = Self.randomNode(depth: 3, using: &generator)
            let pattern = node.rendered(using: &generator)
            let regex = try BoundedRegex(pattern: "\\A(?:" + pattern + ")\\z")
            for _ in 0..<12 {
                let text = Self.randomText(using: &generator)
                let expected = node.ends(from: 0, in: text, fold: false).contains(text.count)
                #expect(
                    regex.matches(String(text)) == expected,
                    "\\A(?:\(pattern))\\z on \(String(text).debugDescription)"
                )
            }
        }
    }
}
