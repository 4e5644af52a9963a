import BmobWire

/// The outcome of one step-limited match (``BoundedRegex/evaluate(_:stepLimit:)``).
package struct RegexEvaluation: Sendable, Equatable {
    /// Whether the pattern matched; `nil` when the step limit ran out before the answer was known.
    package var matched: Bool?
    /// Steps the search took (closure visits plus threads tested against a scalar): the work done, which the
    /// caller can charge to a wider budget.
    package var steps: Int

    /// An outcome with its steps.
    package init(matched: Bool?, steps: Int) {
        self.matched = matched
        self.steps = steps
    }

    /// Whether the search gave up at its step limit.
    package var exceededStepLimit: Bool { matched == nil }
}
