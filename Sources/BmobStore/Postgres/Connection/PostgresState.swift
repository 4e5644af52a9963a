/// A PostgreSQL SQLSTATE (`23505`), kept in a ``StoreError`` so that the store's code can match on it and logs can
/// show it; nothing above the store reads it.
struct PostgresState: RawRepresentable, Hashable, StoreEngineCode {
    var rawValue: String

    init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The two-character class (`23` for integrity constraint violations).
    var errorClass: Substring { rawValue.prefix(2) }

    var description: String { "SQLSTATE \(rawValue)" }

    /// A unique index or primary key already holds the value.
    static let uniqueViolation = PostgresState(rawValue: "23505")
    /// The table does not exist (a class dropped by another node since the catalog was read).
    static let undefinedTable = PostgresState(rawValue: "42P01")
    /// The statement was cancelled: `statement_timeout`, or a cancel request.
    static let queryCanceled = PostgresState(rawValue: "57014")
    /// Concurrent transactions could not be serialized.
    static let serializationFailure = PostgresState(rawValue: "40001")
    /// A deadlock was broken by aborting this transaction.
    static let deadlockDetected = PostgresState(rawValue: "40P01")
    /// A prepared statement this connection believed it had is gone (a pooler switched server connections).
    static let invalidStatementName = PostgresState(rawValue: "26000")
    /// A statement ran in a transaction that an earlier error aborted.
    static let inFailedTransaction = PostgresState(rawValue: "25P02")
    /// A regular expression the engine rejects (too complex, say).
    static let invalidRegularExpression = PostgresState(rawValue: "2201B")
    /// Text PostgreSQL cannot store: a NUL character, or a `\u0000` escape in JSON.
    static let untranslatableCharacter = PostgresState(rawValue: "22P05")
    /// A byte sequence that is not valid in the database encoding.
    static let characterNotInRepertoire = PostgresState(rawValue: "22021")
    /// A number out of the type's range.
    static let numericValueOutOfRange = PostgresState(rawValue: "22003")
    /// The statement exceeded an engine limit (too many columns, too complex).
    static let programLimitExceeded = PostgresState(rawValue: "54000")
    /// The statement is too complex to plan.
    static let statementTooComplex = PostgresState(rawValue: "54001")
    /// Too many columns in a statement.
    static let tooManyColumns = PostgresState(rawValue: "54011")
    /// Too many arguments in a statement.
    static let tooManyArguments = PostgresState(rawValue: "54023")
}
