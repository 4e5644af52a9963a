import BmobWire

/// One instruction of a compiled pattern (a Thompson NFA laid out as a Pike VM program).
enum RegexInstruction: Sendable, Equatable {
    /// Consume exactly this scalar.
    case scalar(Unicode.Scalar)
    /// Consume a scalar in the program's set at this index.
    case set(Int)
    /// Consume any scalar.
    case any
    /// Consume any scalar but a line feed.
    case anyExceptNewline
    /// Continue with the next instruction only if the assertion holds here.
    case assertion(RegexAssertion)
    /// Continue at both targets.
    case split(Int, Int)
    /// Continue at the target.
    case jump(Int)
    /// The pattern has matched.
    case match
}
