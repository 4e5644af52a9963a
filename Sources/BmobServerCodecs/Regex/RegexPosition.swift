import BmobWire

/// A position in the subject, seen by assertions: the scalars on either side of it.
struct RegexPosition {
    /// The scalar before the position, `nil` at the start of the subject.
    var previous: Unicode.Scalar?
    /// The scalar after the position, `nil` at the end of the subject.
    var current: Unicode.Scalar?
    /// Whether ``current`` is the last scalar of the subject (needed by `$` and `\Z`).
    var currentIsLast: Bool
}
