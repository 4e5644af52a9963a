/// Copies one app's SQLite database into its PostgreSQL schema (`bmob migrate`): every class table, the schema
/// registry, declared indexes (their rows, and the PostgreSQL indexes made from them), class permissions,
/// relations, credentials, sessions, SMS codes, email tokens, rate events and the journal with its `seq`s.
///
/// The SQLite file is opened read-only and never changed; no server may be writing to it meanwhile. The app's
/// schema is created and migrated as ``PostgresStore`` would.
///
/// Resumable: tables are read in pages ordered by primary key and inserted with `ON CONFLICT (key) DO NOTHING`,
/// so a run after an interruption (or a second run) copies only what is missing. `__rate_event`, which has no key,
/// is compared by `(kind, subject, at)` and only the missing number of each is inserted. A row PostgreSQL refuses
/// (U+0000 in text, `\u0000` in JSON) is recorded in the report and the copy goes on. At the end every table is
/// counted on both sides (``StoreMigrationReport/counts``).
package struct StoreMigration: Sendable {
    /// The app's SQLite database (`<data>/apps/<applicationId>/data.sqlite`).
    package var sqlitePath: String
    /// The PostgreSQL server: a `postgres://` URL or a libpq connection string.
    package var postgresURL: String
    /// The app, whose schema is ``PostgresSchemaName/init(applicationId:)``.
    package var applicationId: String
    /// Rows read and inserted at a time (1 to 5,000: PostgreSQL takes at most 65,535 parameters a statement).
    package var pageSize: Int
    /// The time recorded for schema migrations, in milliseconds since 1970 UTC.
    package var clock: @Sendable () -> Int64
    /// For tests: stops with an error once this many rows were handled (after the page that reached it).
    package var stopAfterRows: Int?

    /// Makes a migration of one app.
    package init(
        sqlitePath: String,
        postgresURL: String,
        applicationId: String,
        pageSize: Int = 500,
        clock: @escaping @Sendable () -> Int64 = StoreFactory.systemClock,
        stopAfterRows: Int? = nil
    ) {
        self.sqlitePath = sqlitePath
        self.postgresURL = postgresURL
        self.applicationId = applicationId
        self.pageSize = min(5_000, max(1, pageSize))
        self.clock = clock
        self.stopAfterRows = stopAfterRows
    }

    /// Copies the app and counts both sides, calling `progress` as pages are handled. Blocks the calling thread.
    ///
    /// - Throws: ``StoreError``: the SQLite file cannot be opened or was not migrated by this version,
    ///   PostgreSQL is unavailable, or ``stopAfterRows`` was reached. Refused rows are not thrown but reported.
    package func run(progress: (StoreMigrationProgress) -> Void = { _ in }) throws -> StoreMigrationReport {
        let run = try StoreMigrationRun(self)
        defer { run.close() }
        return try run.copy(progress: progress)
    }
}
