@testable import BmobStore
import BmobTesting
import Foundation
import Testing

/// The libpq connection against a real PostgreSQL server (``TestPostgres``): values in and out, errors mapped to
/// store codes, notifications, a lost connection and a cancelled statement. Synchronous tests, since a connection
/// belongs to the thread that opened it.
@Suite("PostgresConnection", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct PostgresConnectionTests {
    /// A connection with a fresh schema first on its search path, dropped afterwards.
    private func withSchema(_ body: (PostgresConnection) throws -> Void) throws {
        let connection = try PostgresConnection(url: try TestPostgres.url())
        let schema = "conn_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try connection.execute("CREATE SCHEMA \(schema); SET search_path TO \(schema)")
        defer { try? connection.execute("ROLLBACK; DROP SCHEMA \(schema) CASCADE") }
        try body(connection)
    }

    @Test("bound values come back as they went in, through ? markers")
    func valuesRoundTrip() throws {
        try withSchema { connection in
            let text = "héllo ✓ 'quoted' \"double\" ? $1"
            let row = try connection.firstRow(
                "SELECT ?::bigint, ?::float8, ?::text, ?::text, ?::text IS NULL, ?::bigint",
                [.integer(-42), .real(0.1), .text(text), .utf8(Array("bytes".utf8)), .null, .integer(Int64.max)]
            ) { row in
                (row.int64(0), Double(row.text(1) ?? ""), row.text(2), row.text(3), row.bool(4), row.int64(5))
            }
            let values = try #require(row)
            #expect(values.0 == -42)
            #expect(values.1 == 0.1)
            #expect(values.2 == text)
            #expect(values.3 == "bytes")
            #expect(values.4)
            #expect(values.5 == Int64.max)
        }
    }

    @Test("a transaction begun with its first statement: one pipeline, the statement's rows, then a ROLLBACK not waited for")
    func beginWithTheFirstStatement() throws {
        try withSchema { connection in
            try connection.execute("CREATE TABLE t (n bigint)")
            let begin = ["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "SET LOCAL statement_timeout = 5000"]
            for round in 0..<3 {
                connection.beginWithFirstStatement(begin)
                #expect(!connection.isInTransaction, "nothing is sent before the first statement")
                let rows = try connection.rows("SELECT ?::bigint + \(round)", [.integer(40)]) { $0.int64(0) }
                #expect(rows == [40 + Int64(round)])
                #expect(connection.isInTransaction)
                let timeout = try connection.firstRow("SELECT current_setting('statement_timeout')") { $0.text(0) }
                #expect(timeout == "5s")
                #expect(!connection.endDeferredBegin())
                try connection.sendWithoutWaiting("ROLLBACK")
                #expect(!connection.isInTransaction)
            }
            // Read only: the transaction really began before the statement.
            connection.beginWithFirstStatement(begin)
            #expect(throws: StoreError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
            try connection.execute("ROLLBACK")
            #expect(try connection.firstRow("SELECT count(*) FROM t") { $0.int64(0) } == 0)
        }
    }

    @Test("a failure in the pipeline is thrown with its code after every result was read; the connection stays usable")
    func pipelineFailures() throws {
        try withSchema { connection in
            // The statement fails.
            connection.beginWithFirstStatement(["BEGIN"])
            do {
                _ = try connection.rows("SELECT 1 / ?::int", [.integer(0)]) { $0.int64(0) }
                Issue.record("division by zero succeeded")
            } catch let error as StoreError {
                #expect(error.code != .unavailable)
            }
            #expect(connection.isInFailedTransaction)
            try connection.execute("ROLLBACK")
            #expect(try connection.firstRow("SELECT 2") { $0.int64(0) } == 2)
            // A beginning statement fails: the statement does not run.
            try connection.execute("CREATE TABLE u (n bigint)")
            connection.beginWithFirstStatement(["BEGIN", "SET LOCAL statement_timeout = 'not a duration'"])
            #expect(throws: StoreError.self) { try connection.run("INSERT INTO u VALUES (?)", [.integer(1)]) }
            try connection.execute("ROLLBACK")
            #expect(try connection.firstRow("SELECT count(*) FROM u") { $0.int64(0) } == 0)
            // A statement the server cannot prepare.
            connection.beginWithFirstStatement(["BEGIN"])
            #expect(throws: StoreError.self) { try connection.rows("SELECT * FROM missing_table WHERE n = ?", [.integer(1)]) { _ in 0 } }
            try connection.execute("ROLLBACK")
            #expect(try connection.firstRow("SELECT ?::int", [.integer(3)]) { $0.int64(0) } == 3)
        }
    }

    @Test("a simple query sends the deferred beginning first; a read that ran nothing ends without a round trip")
    func deferredBeginWithoutAPipeline() throws {
        try withSchema { connection in
            connection.beginWithFirstStatement(["BEGIN"])
            try connection.execute("SELECT 1")
            #expect(connection.isInTransaction)
            try connection.execute("ROLLBACK")
            connection.beginWithFirstStatement(["BEGIN"])
            #expect(connection.endDeferredBegin())
            #expect(!connection.isInTransaction)
        }
    }

    @Test("a read without a transaction runs one statement alone; a second is refused, and every one after it")
    func autocommitRead() throws {
        try withSchema { connection in
            connection.beginAutocommitRead()
            let isolation = try connection.firstRow("SELECT current_setting(?)", [.text("transaction_isolation")]) {
                $0.text(0)
            }
            #expect(isolation == "read committed")  // the session's default: no REPEATABLE READ transaction began
            #expect(!connection.isInTransaction)
            for statement in ["SELECT 2", "SELECT 3"] {
                do {
                    try connection.execute(statement)
                    Issue.record("a second statement ran")
                } catch let error as StoreError {
                    #expect(error.code == .readNeedsSnapshot)
                }
            }
            #expect(connection.endAutocommitRead())
            // Afterwards statements run as usual, and a read that ran one statement ends without asking again.
            try connection.execute("SELECT 4")
            connection.beginAutocommitRead()
            let one = try connection.firstRow("SELECT ?::bigint", [.integer(1)]) { $0.int64(0) }
            #expect(one == 1)
            #expect(!connection.endAutocommitRead())
            try connection.execute("SELECT 5")
        }
    }

    @Test("emptying a full statement cache does not count as a read's statement")
    func autocommitReadWithAFullCache() throws {
        try withSchema { connection in
            for index in 0..<PostgresConnection.statementLimit {
                _ = try connection.firstRow("SELECT ?::bigint + \(index)", [.integer(1)]) { $0.int64(0) }
            }
            connection.beginAutocommitRead()
            let value = try connection.firstRow("SELECT ?::bigint * 7", [.integer(6)]) { $0.int64(0) }
            #expect(value == 42)
            #expect(!connection.endAutocommitRead())
        }
    }

    @Test("a real survives the trip exactly, extremes included")
    func realsAreExact() throws {
        try withSchema { connection in
            for value in [1.0 / 3.0, 1e-300, -2.5e300, 123_456_789.123_456_78, Double.leastNonzeroMagnitude] {
                let back = try connection.firstRow("SELECT ?::float8", [.real(value)]) { Double($0.text(0) ?? "") }
                #expect(back == value)
            }
        }
    }

    @Test("text holding U+0000 is refused before it reaches the server, and the connection stays usable")
    func nulIsRefused() throws {
        try withSchema { connection in
            #expect(throws: StoreError.self) { try connection.run("SELECT ?::text", [.text("a\u{0}b")]) }
            do {
                try connection.run("SELECT ?::text", [.text("a\u{0}b")])
            } catch let error as StoreError {
                #expect(error.code == .unsupportedValue)
            }
            #expect(try connection.firstRow("SELECT 1") { $0.int64(0) } == 1)
        }
    }

    @Test("constraint violations map to store codes: primary key to objectIdTaken, unique index to duplicate")
    func constraintErrors() throws {
        try withSchema { connection in
            try connection.execute(
                """
                CREATE TABLE "Item" (objectId text PRIMARY KEY, code text);
                CREATE UNIQUE INDEX "Item_code" ON "Item" (code)
                """)
            try connection.run(#"INSERT INTO "Item" VALUES (?, ?)"#, [.text("a"), .text("x")])
            func code(_ arguments: [SQLValue]) -> StoreError.Code? {
                do {
                    try connection.run(#"INSERT INTO "Item" VALUES (?, ?)"#, arguments)
                    return nil
                } catch {
                    return error.code
                }
            }
            #expect(code([.text("a"), .text("y")]) == .objectIdTaken)
            #expect(code([.text("b"), .text("x")]) == .duplicate)
            #expect(try connection.run(#"UPDATE "Item" SET code = ? WHERE objectId = ?"#, [.text("z"), .text("a")]) == 1)
        }
    }

    @Test("a failed statement aborts the transaction until rollback; a missing table is notFound")
    func failedTransaction() throws {
        try withSchema { connection in
            try connection.execute("BEGIN")
            do {
                try connection.run(#"SELECT * FROM "Missing""#)
                Issue.record("selecting from a missing table succeeded")
            } catch let error as StoreError {
                #expect(error.code == .notFound)
                #expect(error.postgresState == .undefinedTable)
            }
            #expect(connection.isInTransaction)
            #expect(connection.isInFailedTransaction)
            try connection.execute("ROLLBACK")
            #expect(!connection.isInTransaction)
            #expect(try connection.firstRow("SELECT 2") { $0.int64(0) } == 2)
        }
    }

    @Test("more distinct statements than the cache holds keep working")
    func statementCacheOverflow() throws {
        try withSchema { connection in
            for index in 0..<(PostgresConnection.statementLimit + 20) {
                let value = try connection.firstRow("SELECT ?::bigint + \(index)", [.integer(1)]) { $0.int64(0) }
                #expect(value == Int64(index + 1))
            }
        }
    }

    @Test("writes sent without waiting commit with their answers in one round trip, past the in-flight bound")
    func deferredWritesCommit() throws {
        try withSchema { connection in
            try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY)")
            try connection.execute("BEGIN")
            let count = PostgresConnection.deferredLimit * 2 + 3
            for n in 0..<count {
                try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(Int64(n))])
            }
            #expect(try connection.commitDeferred(notify: nil))
            #expect(!connection.isInTransaction)
            #expect(try connection.firstRow("SELECT count(*) FROM t") { $0.int64(0) } == Int64(count))
            // Nothing in flight: the caller commits the usual way.
            try connection.execute("BEGIN")
            #expect(try !connection.commitDeferred(notify: nil))
            try connection.execute("ROLLBACK")
        }
    }

    @Test("a failed write sent without waiting surfaces at the next statement or the commit, and a rollback clears it")
    func deferredWriteFailure() throws {
        try withSchema { connection in
            try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY)")
            try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
            // At the next statement that waits, which does not run.
            try connection.execute("BEGIN")
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(2)])
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(1)])
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(3)])
            let atRead = #expect(throws: StoreError.self) { _ = try connection.firstRow("SELECT count(*) FROM t") { $0.int64(0) } }
            #expect(atRead?.code == .deferredWriteFailed)
            #expect((atRead?.underlying as? StoreError)?.code == .objectIdTaken)
            #expect(connection.isInFailedTransaction)
            try connection.execute("ROLLBACK")
            // At the commit, which does not run either.
            try connection.execute("BEGIN")
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(1)])
            let atCommit = #expect(throws: StoreError.self) { _ = try connection.commitDeferred(notify: nil) }
            #expect(atCommit?.code == .deferredWriteFailed)
            #expect(connection.isInFailedTransaction)
            // A call that cannot throw read the failure: the rollback drops it, and the connection goes on.
            try connection.execute("ROLLBACK")
            try connection.execute("BEGIN")
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(1)])
            #expect(connection.isInFailedTransaction)
            try connection.execute("ROLLBACK")
            #expect(try connection.firstRow("SELECT count(*) FROM t") { $0.int64(0) } == 1)
            // A write refused before it is sent (U+0000) leaves the ones in flight alone.
            try connection.execute("BEGIN")
            try connection.execute("CREATE TABLE s (v text)")
            try connection.sendDeferred("INSERT INTO s VALUES (?)", [.text("kept")])
            #expect(throws: StoreError.self) { try connection.sendDeferred("INSERT INTO s VALUES (?)", [.text("a\u{0}b")]) }
            #expect(try connection.commitDeferred(notify: nil))
            #expect(try connection.firstRow("SELECT count(*) FROM s") { $0.int64(0) } == 1)
            // Also when it is the first: nothing is left in flight.
            #expect(throws: StoreError.self) { try connection.sendDeferred("INSERT INTO s VALUES (?)", [.text("\u{0}")]) }
            #expect(try connection.firstRow("SELECT count(*) FROM s") { $0.int64(0) } == 1)
        }
    }

    @Test("a write sent without waiting while the statement cache is full goes the usual way")
    func deferredWriteWithFullCache() throws {
        try withSchema { connection in
            try connection.execute("CREATE TABLE t (n bigint)")
            for index in 0..<PostgresConnection.statementLimit {
                _ = try connection.firstRow("SELECT ?::bigint + \(index)", [.integer(1)]) { $0.int64(0) }
            }
            try connection.execute("BEGIN")
            try connection.sendDeferred("INSERT INTO t VALUES (?)", [.integer(1)])
            try connection.sendDeferred("INSERT INTO t VALUES (? + 1)", [.integer(1)])
            try connection.execute("COMMIT")
            #expect(try connection.rows("SELECT n FROM t ORDER BY n") { $0.int64(0) } == [1, 2])
        }
    }

    @Test("LISTEN on one connection receives what another NOTIFYs after its commit")
    func notifications() throws {
        let url = try TestPostgres.url()
        let listener = try PostgresConnection(url: url)
        let sender = try PostgresConnection(url: url)
        let channel = "test_\(UUID().uuidString.prefix(8).lowercased())"
        try listener.execute("LISTEN \(channel)")
        try sender.execute("BEGIN")
        try sender.run("SELECT pg_notify(?, ?)", [.text(channel), .text("41")])
        #expect(try listener.notifications().isEmpty)
        try sender.execute("COMMIT")
        var received: [PostgresNotification] = []
        for _ in 0..<200 where received.isEmpty {
            received = try listener.notifications()
            if received.isEmpty { usleep(5000) }
        }
        #expect(received.map(\.payload) == ["41"])
        #expect(received.first?.channel == channel)
    }

    @Test("a connection the server drops reports unavailable and broken")
    func lostConnection() throws {
        let url = try TestPostgres.url()
        let victim = try PostgresConnection(url: url)
        let killer = try PostgresConnection(url: url)
        let pid = try #require(try victim.firstRow("SELECT pg_backend_pid()") { $0.int64(0) })
        _ = try killer.firstRow("SELECT pg_terminate_backend(?::int)", [.integer(pid)]) { $0.bool(0) }
        var code: StoreError.Code?
        for _ in 0..<100 where code == nil {
            do {
                _ = try victim.firstRow("SELECT 1") { $0.int64(0) }
                usleep(10_000)
            } catch let error as StoreError {
                code = error.code
            }
        }
        #expect(code == .unavailable)
        #expect(victim.isBroken)
    }

    @Test("a statement cancelled from another thread fails as too slow, and the connection survives")
    func cancelledStatement() throws {
        let connection = try PostgresConnection(url: try TestPostgres.url())
        let cancel = try #require(connection.makeCancelHandle())
        let canceller = Thread {
            usleep(200_000)
            cancel.interrupt()
        }
        canceller.start()
        do {
            try connection.run("SELECT pg_sleep(30)")
            Issue.record("the sleep was not cancelled")
        } catch {
            #expect(error.code == .invalidQuery)
            #expect(error.postgresState == .queryCanceled)
        }
        #expect(try connection.firstRow("SELECT 3") { $0.int64(0) } == 3)
    }
}
