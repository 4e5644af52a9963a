import BmobWire
import BmobServerCodecs

/// The work a connection's current read (or write job) has done, charged by the progress handler (SQLite
/// instructions) and by `bmob_regexp` (regex steps), against ``StoreWorkLimits``.
///
/// One per connection, confined to its thread like the connection; SQLite reaches it through the raw pointer
/// given to `sqlite3_progress_handler` and `sqlite3_create_function_v2`, which the connection keeps alive
/// (it closes the handle before it lets the budget go). Once exhausted it stays exhausted until the next
/// ``reset()``: every later statement of the read stops too, and any failure of the read reports ``error``.
final class SQLiteWorkBudget {
    /// Why the work stopped.
    enum Exhaustion: Equatable {
        /// One `$regex` evaluation took more than ``StoreWorkLimits/regexSteps``.
        case regexSteps
        /// The read took more than its query limit.
        case queryWork
    }

    /// SQLite instructions between two progress-handler calls; each call charges this many.
    static let progressInterval: Int32 = 1000

    /// The per-evaluation `$regex` limit.
    let regexStepLimit: Int
    /// The per-read limit; `Int.max` on the writer, whose jobs are not limited.
    let queryWorkLimit: Int
    /// Steps charged since ``reset()``.
    private(set) var used = 0
    /// Set when a limit was reached.
    private(set) var exhaustion: Exhaustion?

    /// A budget with `limits`; `limitsQueries` is false for the writer's connection.
    init(limits: StoreWorkLimits, limitsQueries: Bool) {
        regexStepLimit = limits.regexSteps
        queryWorkLimit = limitsQueries ? limits.queryWork : .max
    }

    /// Starts a new read or write job with nothing charged, or lets transaction control (COMMIT, ROLLBACK) run
    /// unhindered once a read is over.
    func reset() {
        used = 0
        exhaustion = nil
    }

    /// Charges one progress-handler interval; `false` tells SQLite to stop the statement.
    func chargeInstructions() -> Bool {
        guard exhaustion == nil else { return false }
        add(Int(Self.progressInterval))
        guard used <= queryWorkLimit else {
            exhaustion = .queryWork
            return false
        }
        return true
    }

    /// How many steps the next `$regex` evaluation may take: its own limit, or what is left of the read's.
    var regexStepAllowance: Int {
        min(regexStepLimit, max(0, queryWorkLimit - used))
    }

    /// Charges an evaluation run with ``regexStepAllowance``; `false` when it ran out of steps or the read is
    /// over its limit, and the statement must fail.
    func charge(_ evaluation: RegexEvaluation, allowance: Int) -> Bool {
        add(evaluation.steps)
        if evaluation.exceededStepLimit {
            exhaustion = allowance >= regexStepLimit ? .regexSteps : .queryWork
            return false
        }
        guard used <= queryWorkLimit else {
            exhaustion = .queryWork
            return false
        }
        return true
    }

    /// The client error for the exhaustion, `nil` while within the limits.
    var error: StoreError? {
        switch exhaustion {
        case nil:
            return nil
        case .regexSteps?:
            return StoreError.invalidQuery(
                "the query needs too much work: a $regex took more than \(regexStepLimit) steps on one value; "
                    + "use a simpler pattern (anchor it, avoid repeating groups that contain .*) or narrow the "
                    + "where so that it matches fewer or shorter values")
        case .queryWork?:
            return StoreError.invalidQuery(
                "the query needs too much work (more than \(queryWorkLimit) steps); narrow it with a more "
                    + "selective where (an indexed field, fewer $or branches, a simpler $regex) or a smaller "
                    + "limit")
        }
    }

    /// Adds `steps` to ``used``, stopping at `Int.max`.
    private func add(_ steps: Int) {
        let (sum, overflow) = used.addingReportingOverflow(steps)
        used = overflow ? .max : sum
    }

    /// The message `bmob_regexp` fails its statement with; the statement's error is replaced by ``error``.
    static let regexFailureMessage = "bmob: query work limit reached"
}

@available(*, unavailable, message: "a work budget belongs to a connection confined to one thread")
extension SQLiteWorkBudget: Sendable {}
