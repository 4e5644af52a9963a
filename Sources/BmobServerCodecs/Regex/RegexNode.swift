import BmobWire

/// The syntax tree of a parsed pattern; groups leave no node of their own since nothing is captured.
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One exact scalar.
    case scalar(Unicode.Scalar)
    /// One scalar from the set at this index of the parser's set table.
    case set(Int)
    /// `.`: any scalar, or any but a line feed when `dotAll` is false.
    case any(dotAll: Bool)
    /// A zero-width assertion.
    case assertion(RegexAssertion)
    /// The items one after another.
    case concatenation([RegexNode])
    /// Any one of the branches.
    case alternation([RegexNode])
    /// The node `min` to `max` times (`max` nil: unbounded).
    case repetition(RegexNode, min: Int, max: Int?)

    /// Whether every match must begin at the start of the subject (`\A` or `^` without `m` comes first), so the
    /// search can stop once no attempt started at offset 0 is alive. `false` when unsure.
    var isAnchoredAtStart: Bool {
        switch self {
        case .assertion(.textStart):
            return true
        case .concatenation(let items):
            for item in items {
                if item.isAnchoredAtStart { return true }
                guard case .empty = item else { return false }
            }
            return false
        case .alternation(let branches):
            return branches.allSatisfy(\.isAnchoredAtStart)
        case .repetition(let inner, let min, _):
            return min > 0 && inner.isAnchoredAtStart
        case .empty, .scalar, .set, .any, .assertion:
            return false
        }
    }
}
