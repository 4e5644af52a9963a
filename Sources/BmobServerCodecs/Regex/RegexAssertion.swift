import BmobWire

/// A zero-width condition on the position between two scalars of the subject.
enum RegexAssertion: Sendable, Equatable {
    /// `\A`, and `^` without the `m` option: the start of the subject.
    case textStart
    /// `\z`: the very end of the subject.
    case textEnd
    /// `\Z`, and `$` without the `m` option: the end of the subject or before a line feed that ends it.
    case textEndOrFinalNewline
    /// `^` with the `m` option: the start of the subject or after a line feed that is not the last scalar.
    case lineStart
    /// `$` with the `m` option: before any line feed or at the end of the subject.
    case lineEnd
    /// `\b`: between an ASCII word scalar (`[A-Za-z0-9_]`) and a non-word scalar or either end.
    case wordBoundary
    /// `\B`: anywhere `\b` does not hold.
    case notWordBoundary

    /// Whether the assertion holds at `position`.
    func holds(at position: RegexPosition) -> Bool {
        switch self {
        case .textStart:
            return position.previous == nil
        case .textEnd:
            return position.current == nil
        case .textEndOrFinalNewline:
            guard let current = position.current else { return true }
            return current == "\n" && position.currentIsLast
        case .lineStart:
            guard let previous = position.previous else { return true }
            return previous == "\n" && position.current != nil
        case .lineEnd:
            guard let current = position.current else { return true }
            return current == "\n"
        case .wordBoundary:
            return Self.isWord(position.previous) != Self.isWord(position.current)
        case .notWordBoundary:
            return Self.isWord(position.previous) == Self.isWord(position.current)
        }
    }

    /// Whether `scalar` is in `\w` (ASCII letters, digits and `_`, as PCRE without UCP).
    private static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else { return false }
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x5F, 0x61...0x7A: return true
        default: return false
        }
    }
}
