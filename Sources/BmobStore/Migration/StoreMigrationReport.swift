/// What ``StoreMigration/run(progress:)`` did for one app: the row counts of each table on both sides and the
/// rows that failed.
package struct StoreMigrationReport: Sendable {
    /// The app.
    package var applicationId: String
    /// Each table's counts, in the order the tables were copied.
    package var counts: [StoreMigrationTableCount] = []
    /// The failed rows, at most ``failureLimit`` of them.
    package var failures: [StoreMigrationFailure] = []
    /// How many rows failed, including those past ``failureLimit``.
    package var failureCount = 0

    /// Most failures kept in ``failures``.
    package static let failureLimit = 1_000

    /// Whether every row was copied: no failure and every table's counts agree.
    package var isComplete: Bool { failureCount == 0 && counts.allSatisfy(\.matches) }

    /// Records a failure.
    mutating func fail(_ failure: StoreMigrationFailure) {
        failureCount += 1
        if failures.count < Self.failureLimit { failures.append(failure) }
    }
}
