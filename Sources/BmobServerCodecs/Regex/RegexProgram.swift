import BmobWire

/// A compiled pattern: a Pike VM program over Unicode scalars.
struct RegexProgram: Sendable {
    /// The instructions; execution starts at 0 and the last one is ``RegexInstruction/match``.
    let instructions: [RegexInstruction]
    /// Sets referred to by ``RegexInstruction/set(_:)``.
    let sets: [RegexScalarSet]
    /// Whether every match starts at offset 0, so the search may stop as soon as no thread is alive.
    let anchoredAtStart: Bool
    /// Whether some set compares case forms, so each subject scalar's case forms are needed.
    let usesCaseFolding: Bool

    /// Creates a program.
    init(instructions: [RegexInstruction], sets: [RegexScalarSet], anchoredAtStart: Bool) {
        self.instructions = instructions
        self.sets = sets
        self.anchoredAtStart = anchoredAtStart
        self.usesCaseFolding = sets.contains { $0.caseInsensitive }
    }
}
