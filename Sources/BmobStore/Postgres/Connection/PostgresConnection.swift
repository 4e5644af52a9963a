import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection, confined to the thread that opened it, like ``SQLiteConnection``.
///
/// Every call blocks its thread until the server answers, so connections live on the store's own threads, never
/// on an event loop. Statements with parameters are prepared once per connection and cached by SQL text (at most
/// ``statementLimit``); values travel as bound text parameters, never inside SQL, marked `?` as on every engine
/// (``PostgresPlaceholders`` numbers them). Results are read in text format. A failed statement becomes a ``StoreError`` whose ``StoreError/postgresState`` is the SQLSTATE; a lost
/// connection becomes ``StoreError/Code/unavailable`` and ``isBroken`` turns true, after which the owner opens a
/// new connection.
final class PostgresConnection {
    private var handle: OpaquePointer?
    private let owner: pthread_t
    /// Prepared statement names by SQL text.
    private var prepared: [String: String] = [:]
    private var preparedCount = 0
    /// Whether a ``sendWithoutWaiting(_:)`` was not answered yet.
    private var awaitingResults = false
    /// Statements that begin a transaction, to be sent with the transaction's first statement
    /// (``beginWithFirstStatement(_:)``).
    private var deferredBegin: [String]?
    /// A read without a transaction (``beginAutocommitRead()``), and how far it went.
    private var autocommitRead: AutocommitRead?
    /// Writes sent in pipeline mode whose results were not read yet (``sendDeferred(_:_:)``), in order.
    private var deferred: [PostgresDeferredWrite] = []
    /// The first failure among deferred writes whose results were read by a call that cannot throw; the next
    /// statement throws it (``takeDeferredFailure(before:)``), a rollback drops it.
    private var deferredFailure: StoreError?
    /// Counts statements run through ``run(_:_:)`` and ``execute(_:)``: any of them may have changed something.
    private(set) var changeMark: Int64 = 0
    /// Row statement texts of the class used last (``ObjectRows``).
    var classSQL = ClassSQL()
    /// The app's schema, quoted, once ``use(schema:)`` set it: first on the search path.
    private(set) var schema: String?
    /// The channel the writer notifies after commits with journal rows (the schema name, which needs no quoting).
    private(set) var notifyChannel: String?
    /// The key of the app's transaction-scoped advisory lock, which writers hold from BEGIN to COMMIT.
    private(set) var lockKey: Int64 = 0
    /// The largest journal `seq` this connection committed, or saw when its last write transaction began.
    var lastSeenSeq: Int64 = 0
    /// The journal's head while the writer's transaction holds the app's lock (read when it began): the next
    /// append takes the next `seq` without asking the database. `nil` outside a write, and after any failed
    /// statement or rollback (then the next append asks, and counting resumes from its answer).
    var knownJournalHead: Int64?
    /// Whether the writer lets a create's insert go without waiting for its answer (``sendDeferred(_:_:)``): for
    /// jobs without a savepoint, which are run again, each in a savepoint, if a deferred write fails.
    var defersWrites = false

    /// Most statements prepared on one connection; above it the cache is emptied (`DEALLOCATE ALL`).
    static let statementLimit = 256

    /// Connects to `url` (a `postgres://` URL or a libpq connection string).
    ///
    /// - Throws: ``StoreError/Code/unavailable`` when the server cannot be reached or refuses the connection,
    ///   ``StoreError/Code/incompatible`` when the database does not use UTF-8.
    init(url: String, applicationName: String = "bmob") throws(StoreError) {
        owner = pthread_self()
        let keywords = ["dbname", "application_name", "client_encoding", "connect_timeout"]
        let values = [url, applicationName, "UTF8", "10"]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else { throw StoreError(.unavailable, "cannot allocate a database connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            var error = StoreError(.unavailable, "cannot connect to the database")
            error.detail = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw error
        }
        // Notices ("relation already exists, skipping") are expected and say nothing the store acts on.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        if let encoding = PQparameterStatus(connection, "server_encoding"), String(cString: encoding) != "UTF8" {
            let name = String(cString: encoding)
            PQfinish(connection)
            throw StoreError(.incompatible, "the database uses the \(name) encoding; Bmob needs UTF8")
        }
        handle = connection
    }

    deinit {
        close()
    }

    /// Closes the connection. Safe to call more than once, and from another thread once the owner is done with it.
    func close() {
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
        prepared = [:]
    }

    /// Whether the connection to the server was lost; a broken connection is closed and replaced.
    var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    /// Whether a transaction block is open (in error or not).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(readyHandle())
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the open transaction was aborted by a failed statement: only ROLLBACK (or ROLLBACK TO a savepoint)
    /// is accepted until then.
    var isInFailedTransaction: Bool {
        PQtransactionStatus(readyHandle()) == PQTRANS_INERROR
    }

    /// The socket, for waiting on notifications with `poll`.
    var socket: Int32 {
        PQsocket(checkedHandle())
    }

    /// A handle another thread may use to cancel the statement this connection runs.
    func makeCancelHandle() -> PostgresCancelHandle? {
        PQgetCancel(checkedHandle()).map(PostgresCancelHandle.init)
    }

    /// Runs SQL text without parameters through the simple query protocol: several statements separated by `;`
    /// run in one round trip (`BEGIN; SET LOCAL …`), DDL, transaction control. Uncached.
    func execute(_ sql: String) throws(StoreError) {
        try admitStatement()
        changeMark &+= 1
        let handle = try beganHandle(before: sql)
        guard let result = PQexec(handle, sql) else { throw connectionError(sql: sql) }
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> Int {
        changeMark &+= 1
        return try withResult(sql, arguments) { result in
            guard let text = PQcmdTuples(result), text.pointee != 0 else { return 0 }
            return Int(String(cString: text)) ?? 0
        }
    }

    /// Runs a query and maps each row.
    func rows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (PostgresRow) throws -> T) throws -> [T] {
        try withResult(sql, arguments) { result in
            let count = PQntuples(result)
            var rows: [T] = []
            rows.reserveCapacity(Int(count))
            for index in 0..<count {
                rows.append(try map(PostgresRow(result: result, index: index)))
            }
            return rows
        }
    }

    /// Runs a query and maps its first row, if any.
    func firstRow<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (PostgresRow) throws -> T) throws -> T? {
        try withResult(sql, arguments) { result in
            PQntuples(result) > 0 ? try map(PostgresRow(result: result, index: 0)) : nil
        }
    }

    /// Runs SQL text without parameters through the simple query protocol, like ``execute(_:)``, and maps the
    /// first row of the last statement's result (`BEGIN; …; SELECT max(seq) …` in one round trip).
    func executeReturning<T>(_ sql: String, _ map: (PostgresRow) -> T) throws(StoreError) -> T? {
        try admitStatement()
        changeMark &+= 1
        let handle = try beganHandle(before: sql)
        guard let result = PQexec(handle, sql) else { throw connectionError(sql: sql) }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return PQntuples(result) > 0 ? map(PostgresRow(result: result, index: 0)) : nil
    }

    /// Makes `schema` the first schema of the search path for this session, and
    /// remembers it, the app's lock key and its channel for the transactions the store begins.
    func use(schema: PostgresSchemaName) throws(StoreError) {
        try execute("SET search_path TO \(schema.quoted)")
        self.schema = schema.quoted
        self.lockKey = schema.lockKey
        self.notifyChannel = schema.channel
    }

    /// Notifications that arrived for the channels this connection listens to, without waiting; reads what the
    /// socket holds first.
    ///
    /// - Throws: ``StoreError/Code/unavailable`` when the connection was lost.
    func notifications() throws(StoreError) -> [PostgresNotification] {
        let handle = checkedHandle()
        guard PQconsumeInput(handle) == 1 else { throw connectionError(sql: nil) }
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            let channel = String(cString: notification.pointee.relname)
            let payload = notification.pointee.extra.map { String(cString: $0) } ?? ""
            received.append(PostgresNotification(channel: channel, payload: payload))
            PQfreemem(notification)
        }
        return received
    }

    /// Runs `sql` (prepared on first use) with `arguments`, and lends the successful result to `body`.
    private func withResult<T>(
        _ sql: String, _ arguments: [SQLValue], _ body: (OpaquePointer) throws -> T
    ) throws(StoreError) -> T {
        let result = try execute(sql, arguments)
        defer { PQclear(result) }
        do {
            return try body(result)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "reading a result failed", underlying: error)
        }
    }

    private func execute(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> OpaquePointer {
        try admitStatement()
        let handle = readyHandle()
        try takeDeferredFailure(before: sql)
        if let begin = deferredBegin {
            deferredBegin = nil
            return try executePipelined(begin: begin, sql, arguments, handle: handle)
        }
        let name = try statementName(for: sql, handle: handle)
        let result = try Self.withParameters(arguments) { values, count in
            PQexecPrepared(handle, name, count, values, nil, nil, 0)
        }
        guard let result else { throw connectionError(sql: sql) }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            if error.postgresState == .invalidStatementName {
                // The server lost the statement (a pooler moved us to another server connection): forget it so
                // the next use prepares it again.
                prepared[sql] = nil
            }
            throw error
        }
        return result
    }

    /// The name of the prepared statement for `sql`, preparing it first when needed.
    private func statementName(for sql: String, handle: OpaquePointer) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        if prepared.count >= Self.statementLimit {
            guard let result = PQexec(handle, "DEALLOCATE ALL") else { throw connectionError(sql: "DEALLOCATE ALL") }
            defer { PQclear(result) }
            try check(result, sql: "DEALLOCATE ALL")
            prepared = [:]
        }
        let name = freshStatementName()
        let text = PostgresPlaceholders.numbered(sql).sql
        guard let result = PQprepare(handle, name, text, 0, nil) else { throw connectionError(sql: sql) }
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// A name no statement of this connection has had.
    private func freshStatementName() -> String {
        preparedCount += 1
        return "bmob\(preparedCount)"
    }

    /// Throws the statement's error unless `result` reports success. A failure makes the journal's head unknown
    /// (a savepoint's rollback may follow).
    private func check(_ result: OpaquePointer, sql: String?) throws(StoreError) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            knownJournalHead = nil
            throw statementError(result, sql: sql)
        }
    }

    /// The store error for a failed statement: the code from its SQLSTATE, PostgreSQL's message and the SQL text
    /// as debug-only detail.
    private func statementError(_ result: OpaquePointer, sql: String?) -> StoreError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        guard let sqlState = field(Int32(UInt8(ascii: "C"))) else { return connectionError(sql: sql) }
        let state = PostgresState(rawValue: sqlState)
        var error = PostgresErrorMapping.error(for: state, constraint: field(Int32(UInt8(ascii: "n"))))
        error.postgresState = state
        var detail = field(Int32(UInt8(ascii: "M"))) ?? ""
        if let sql { detail += " in: \(sql)" }
        error.detail = detail
        return error
    }

    /// The error for a call that got no answer: the connection is gone (or libpq is out of memory).
    private func connectionError(sql: String?) -> StoreError {
        var error = StoreError(.unavailable, "the database is unavailable")
        var detail = handle.map { String(cString: PQerrorMessage($0)) } ?? "closed"
        if let sql { detail += " in: \(sql)" }
        error.detail = detail
        return error
    }

    /// Begins a transaction with `statements` (single statements without parameters: `BEGIN …`, `SET LOCAL …`),
    /// sent with the transaction's first parameterized statement in one round trip (libpq's pipeline mode), or
    /// before any other call. A read that runs no statement sends nothing: ``endDeferredBegin()`` says so.
    func beginWithFirstStatement(_ statements: [String]) {
        deferredBegin = statements
    }

    /// Starts a read that runs without a transaction: its first statement runs alone, in a snapshot of its own,
    /// as it would as the only statement of a `REPEATABLE READ` transaction, without the transaction's `BEGIN`
    /// and `ROLLBACK` (most of PostgreSQL's work for a short query). A second statement would see another snapshot,
    /// so it is refused (``StoreError/Code/readNeedsSnapshot``), as is every statement after it, and
    /// ``endAutocommitRead()`` says the read must run again in a transaction.
    func beginAutocommitRead() {
        autocommitRead = .waiting
    }

    /// Ends a ``beginAutocommitRead()``; `true` when a statement was refused, whatever the read did with that
    /// error: its answer may rest on it, so the read runs again in a transaction.
    func endAutocommitRead() -> Bool {
        defer { autocommitRead = nil }
        return autocommitRead == .refused
    }

    /// Counts a statement of a read without a transaction: the first passes, any other is refused.
    private func admitStatement() throws(StoreError) {
        switch autocommitRead {
        case nil:
            return
        case .waiting?:
            autocommitRead = .ran
        case .ran?, .refused?:
            autocommitRead = .refused
            throw StoreError(.readNeedsSnapshot, "a read without a transaction asked for a second statement")
        }
    }

    /// Forgets a ``beginWithFirstStatement(_:)`` that nothing sent; `true` when there was one (no transaction
    /// to end then).
    func endDeferredBegin() -> Bool {
        defer { deferredBegin = nil }
        return deferredBegin != nil
    }

    /// `begin`'s statements, then `sql` (prepared first when new), in one pipeline: one round trip. Returns the
    /// statement's result; the first failure of the pipeline is thrown, after every result was read.
    private func executePipelined(
        begin: [String], _ sql: String, _ arguments: [SQLValue], handle: OpaquePointer
    ) throws(StoreError) -> OpaquePointer {
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError(sql: sql) }
        enum Sent { case begin, prepare(String), statement }
        var sent: [(Sent, String)] = []
        for statement in begin {
            guard PQsendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) == 1 else { break }
            sent.append((.begin, statement))
        }
        // With a full statement cache the statement runs after the pipeline, which empties it first.
        if sent.count == begin.count, prepared[sql] != nil || prepared.count < Self.statementLimit {
            var name = prepared[sql]
            if name == nil {
                let fresh = freshStatementName()
                if PQsendPrepare(handle, fresh, PostgresPlaceholders.numbered(sql).sql, 0, nil) == 1 {
                    sent.append((.prepare(fresh), sql))
                    name = fresh
                }
            }
            if let name {
                let queued = try Self.withParameters(arguments) { values, count in
                    PQsendQueryPrepared(handle, name, count, values, nil, nil, 0) == 1
                }
                if queued { sent.append((.statement, sql)) }
            }
        }
        let synced = PQpipelineSync(handle) == 1
        // Every result up to the sync is read, whatever happened, so that the connection leaves the pipeline
        // clean. Each query's results end with a NULL.
        var failure: StoreError?
        var statementResult: OpaquePointer?
        for (kind, text) in sent {
            guard let result = PQgetResult(handle) else {
                failure = failure ?? connectionError(sql: text)
                break
            }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            var succeeded = true
            do {
                try check(result, sql: text)
            } catch {
                succeeded = false
                failure = failure ?? error
            }
            switch kind {
            case .prepare(let name) where succeeded:
                prepared[sql] = name
                PQclear(result)
            case .statement where succeeded:
                statementResult = result
            default:
                PQclear(result)
            }
        }
        Self.endPipeline(handle, synced: synced)
        if let failure {
            if let statementResult { PQclear(statementResult) }
            if failure.postgresState == .invalidStatementName { prepared[sql] = nil }
            throw failure
        }
        if let statementResult { return statementResult }
        // The statement was not sent (its cache was full): the transaction began; run it the usual way.
        guard !isBroken else { throw connectionError(sql: sql) }
        return try execute(sql, arguments)
    }

    /// Reads up to the pipeline's sync point (when the sync was sent), after every statement's results were
    /// read, and leaves pipeline mode: the connection is clean for its next statement.
    private static func endPipeline(_ handle: OpaquePointer, synced: Bool) {
        if synced {
            while let result = PQgetResult(handle) {
                let done = PQresultStatus(result) == PGRES_PIPELINE_SYNC
                PQclear(result)
                if done { break }
            }
        }
        PQexitPipelineMode(handle)
    }

    /// Sends `sql` (transaction control without a result worth waiting for: a read's `ROLLBACK`) and returns at
    /// once; its answer is read before the connection's next use (``readyHandle()``). Saves a read one round
    /// trip, the wait for its transaction's end.
    func sendWithoutWaiting(_ sql: String) throws(StoreError) {
        let handle = readyHandle()
        guard PQsendQuery(handle, sql) == 1 else { throw connectionError(sql: sql) }
        awaitingResults = true
    }

    /// Sends a write (`sql` with `arguments`, prepared first when new) in pipeline mode and returns without
    /// waiting: a group's creates reach the database back to back, and their answers are read together by the
    /// next call that needs one (at the latest the commit, which joins them). A failure surfaces there as
    /// ``StoreError/Code/deferredWriteFailed``, or as ``StoreError/Code/unavailable`` when the connection was
    /// lost.
    func sendDeferred(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) {
        changeMark &+= 1
        // Joins the writes in flight, if any (readyHandle would read their answers).
        let handle = deferred.isEmpty ? readyHandle() : checkedHandle()
        try takeDeferredFailure(before: sql)
        if deferred.count >= Self.deferredLimit {
            // Bounded, so that neither side's socket buffer fills with the other's unread data.
            if let failure = readDeferred(handle) { throw failure }
        }
        if prepared[sql] == nil, prepared.count >= Self.statementLimit {
            // Emptying the statement cache waits for an answer: send the write the usual way.
            if let failure = readDeferred(handle) { throw failure }
            _ = try run(sql, arguments)
            return
        }
        if deferred.isEmpty {
            guard PQenterPipelineMode(handle) == 1 else { throw connectionError(sql: sql) }
        }
        var name = prepared[sql]
        if name == nil {
            let fresh = freshStatementName()
            guard PQsendPrepare(handle, fresh, PostgresPlaceholders.numbered(sql).sql, 0, nil) == 1 else {
                throw sendFailure(handle, sql: sql)
            }
            deferred.append(PostgresDeferredWrite(sql: sql, preparedName: fresh))
            name = fresh
        }
        let queued: Bool
        do {
            queued = try Self.withParameters(arguments) { values, count in
                PQsendQueryPrepared(handle, name, count, values, nil, nil, 0) == 1
            }
        } catch {
            // A value refused before sending: what is in flight stays so, and an empty pipeline is left.
            if deferred.isEmpty { PQexitPipelineMode(handle) }
            throw error
        }
        guard queued else { throw sendFailure(handle, sql: sql) }
        deferred.append(PostgresDeferredWrite(sql: sql, preparedName: nil))
    }

    /// Most writes in flight at once (``sendDeferred(_:_:)``); their answers are a few dozen bytes each.
    static let deferredLimit = 512

    /// `COMMIT` (after `notify`, a `pg_notify` statement without parameters) joined to the deferred writes in one
    /// round trip, when there are any; `false` when there were none, so the caller commits the usual way.
    ///
    /// - Throws: ``StoreError/Code/deferredWriteFailed`` when a deferred write failed: the commit did not run and
    ///   the transaction awaits a rollback.
    func commitDeferred(notify: String?) throws(StoreError) -> Bool {
        guard !deferred.isEmpty, let handle else { return false }
        for statement in [notify, "COMMIT"].compactMap({ $0 }) {
            guard PQsendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) == 1 else {
                throw sendFailure(handle, sql: statement)
            }
            deferred.append(PostgresDeferredWrite(sql: statement, preparedName: nil))
        }
        knownJournalHead = nil
        if let failure = readDeferred(handle) { throw failure }
        return true
    }

    /// The failure of a send in pipeline mode: the answers of what was sent before are read first.
    private func sendFailure(_ handle: OpaquePointer, sql: String) -> StoreError {
        _ = readDeferred(handle)
        return connectionError(sql: sql)
    }

    /// Reads the answers of every deferred write (a sync ends the pipeline), and leaves pipeline mode. Returns
    /// the first failure: ``StoreError/Code/unavailable`` when the connection was lost, otherwise
    /// ``StoreError/Code/deferredWriteFailed`` wrapping the write's own error (the database skipped everything
    /// after it until the sync, and the transaction awaits a rollback).
    private func readDeferred(_ handle: OpaquePointer) -> StoreError? {
        guard !deferred.isEmpty else { return nil }
        let sent = deferred
        deferred = []
        let synced = PQpipelineSync(handle) == 1
        var failure: StoreError?
        for write in sent {
            guard let result = PQgetResult(handle) else {
                failure = failure ?? connectionError(sql: write.sql)
                break
            }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            if PQresultStatus(result) != PGRES_PIPELINE_ABORTED {
                do {
                    try check(result, sql: write.sql)
                    if let name = write.preparedName { prepared[write.sql] = name }
                } catch {
                    failure = failure ?? error
                }
            }
            PQclear(result)
        }
        Self.endPipeline(handle, synced: synced)
        guard let failure else { return nil }
        knownJournalHead = nil
        if failure.code == .unavailable || isBroken { return failure }
        return StoreError(.deferredWriteFailed, "a write sent without waiting failed", underlying: failure)
    }

    /// Throws a deferred write's failure that a call which cannot throw read, unless `sql` is a rollback (which
    /// is what it calls for). Transaction control ends what the journal's known head was counted for.
    private func takeDeferredFailure(before sql: String) throws(StoreError) {
        let rollback = sql.hasPrefix("ROLLBACK")
        if rollback || sql.hasPrefix("COMMIT") { knownJournalHead = nil }
        guard let failure = deferredFailure else { return }
        deferredFailure = nil
        if !rollback { throw failure }
    }

    /// The handle, once the answers of a ``sendWithoutWaiting(_:)`` were read. A failed one leaves nothing
    /// behind: a transaction it should have ended is rolled back here.
    private func readyHandle() -> OpaquePointer {
        let handle = checkedHandle()
        if !deferred.isEmpty {
            let failure = readDeferred(handle)
            deferredFailure = deferredFailure ?? failure
        }
        guard awaitingResults else { return handle }
        awaitingResults = false
        while let result = PQgetResult(handle) { PQclear(result) }
        let status = PQtransactionStatus(handle)
        if status == PQTRANS_INTRANS || status == PQTRANS_INERROR, let result = PQexec(handle, "ROLLBACK") {
            PQclear(result)
        }
        return handle
    }

    /// ``readyHandle()``, after sending a ``beginWithFirstStatement(_:)`` on its own, for the calls that cannot
    /// join it in a pipeline (simple queries).
    private func beganHandle(before sql: String) throws(StoreError) -> OpaquePointer {
        let handle = readyHandle()
        try takeDeferredFailure(before: sql)
        if let begin = deferredBegin {
            deferredBegin = nil
            let sql = begin.joined(separator: "; ")
            guard let result = PQexec(handle, sql) else { throw connectionError(sql: sql) }
            defer { PQclear(result) }
            try check(result, sql: sql)
        }
        return handle
    }

    private func checkedHandle() -> OpaquePointer {
        precondition(pthread_equal(owner, pthread_self()) != 0, "PostgresConnection used off the thread that opened it")
        guard let handle else { preconditionFailure("PostgresConnection used after close") }
        return handle
    }

    /// Calls `body` with NUL-terminated copies of `strings` and a NULL-terminated array of pointers to them.
    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Calls `body` with the text form of `arguments` as NUL-terminated strings (NULL for SQL NULL), packed in one
    /// buffer.
    ///
    /// - Throws: ``StoreError/Code/unsupportedValue`` for text holding U+0000, which PostgreSQL text cannot store
    ///   (and which would otherwise cut the value short).
    private static func withParameters<T>(
        _ arguments: [SQLValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> T
    ) throws(StoreError) -> T {
        guard !arguments.isEmpty else { return body(nil, 0) }
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(arguments.count)
        for argument in arguments {
            let start = buffer.count
            switch argument {
            case .null:
                offsets.append(nil)
                continue
            case .integer(let value):
                buffer.append(contentsOf: String(value).utf8)
            case .real(let value):
                buffer.append(contentsOf: PostgresText.real(value).utf8)
            case .text(let text):
                guard !text.utf8.contains(0) else { throw unsupportedNul() }
                buffer.append(contentsOf: text.utf8)
            case .utf8(let bytes):
                guard !bytes.contains(0) else { throw unsupportedNul() }
                buffer.append(contentsOf: bytes)
            }
            buffer.append(0)
            offsets.append(start)
        }
        return buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { base + $0 } }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress, Int32(arguments.count)) }
        }
    }

    private static func unsupportedNul() -> StoreError {
        StoreError(
            .unsupportedValue, "text containing the character U+0000 cannot be stored in PostgreSQL",
            fileID: nil, line: nil)
    }
}

@available(*, unavailable, message: "a connection is confined to the thread that opened it")
extension PostgresConnection: Sendable {}
