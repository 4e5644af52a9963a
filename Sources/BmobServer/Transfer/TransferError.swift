/// Why an export or an import stopped before writing anything: the file, and what was wrong in it.
package struct TransferError: Error, CustomStringConvertible, Sendable {
    /// One line per problem found.
    package let problems: [String]

    /// An error listing `problems`.
    package init(_ problems: [String]) {
        self.problems = problems
    }

    /// An error of one problem.
    package init(_ problem: String) {
        self.problems = [problem]
    }

    /// The problems, one per line (the first 50).
    package var description: String {
        let shown = problems.prefix(50).joined(separator: "\n  ")
        return problems.count > 50 ? "\(shown)\n  … and \(problems.count - 50) more" : shown
    }
}
