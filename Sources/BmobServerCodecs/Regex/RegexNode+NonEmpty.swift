import BmobWire

extension RegexNode {
    /// Whether the node matches the empty string everywhere, by a path with no assertion on it (`a?`, `(?:)`,
    /// `(?:b|)`), as opposed to only where an assertion holds (`\b`).
    var isNullable: Bool {
        switch self {
        case .empty:
            return true
        case .scalar, .set, .any, .assertion:
            return false
        case .concatenation(let items):
            return items.allSatisfy(\.isNullable)
        case .alternation(let branches):
            return branches.contains { $0.isNullable }
        case .repetition(let inner, let min, let max):
            return min == 0 || max == 0 || inner.isNullable
        }
    }

    /// The node without its unconditional empty match: what it matches by any other path, so that the node
    /// equals `nonEmpty` or the empty string when ``isNullable``, and equals `nonEmpty` otherwise; `nil` when
    /// nothing is left.
    ///
    /// Used to repeat nullable items: `x{m,n}` with `x` nullable matches exactly `nonEmpty{0,n}`, since empty
    /// copies can always be added or dropped. The rewrite matters to PostgreSQL, whose compiler links every
    /// state of a chain of nullable copies to every later one (quadratic in the count: `(?:|\t*|.z){0,765}`
    /// took 35 s to compile and larger ones failed as "too complex"), and it stays linear in the node's size:
    /// a concatenation of nullable items `a b c` is rewritten left to right as `((a' b | b') c | c')`, where
    /// `x'` is the item's own rewrite, instead of listing which item is the first to consume.
    var nonEmpty: RegexNode? {
        guard isNullable else { return self }
        switch self {
        case .empty, .scalar, .set, .any, .assertion:
            return nil
        case .concatenation(let items):
            var result: RegexNode?
            for item in items {
                let consuming = item.nonEmpty
                let continued = result.map { RegexNode.concatenation([$0, item]) }
                result = Self.either(continued, consuming)
            }
            return result
        case .alternation(let branches):
            let kept = branches.compactMap { $0.isNullable ? $0.nonEmpty : $0 }
            switch kept.count {
            case 0: return nil
            case 1: return kept[0]
            default: return .alternation(kept)
            }
        case .repetition(let inner, _, let max):
            if max == 0 { return nil }
            if inner.isNullable {
                return inner.nonEmpty.map { .repetition($0, min: 1, max: max) }
            }
            return .repetition(inner, min: 1, max: max)
        }
    }

    /// The alternation of whichever of `first` and `second` exist.
    private static func either(_ first: RegexNode?, _ second: RegexNode?) -> RegexNode? {
        switch (first, second) {
        case (let first?, let second?): return .alternation([first, second])
        case (let first?, nil): return first
        case (nil, let second?): return second
        case (nil, nil): return nil
        }
    }
}
