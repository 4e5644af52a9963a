// The raw SQLite reference that `make bench` runs beside `bmob serve`: single-row inserts into a fresh
// database opened the way the server's store opens its own (SQLiteConnection / SQLiteWriter), into a table
// shaped like a class table, one autocommit transaction per row through one prepared statement.
//
//   bmob-bench sqlite-inserts --path FILE [--seconds S | --count N] [--journal] [--keep]
//                             [--synchronous normal|full]
//
// Prints one JSON object: the mode, how many rows, the elapsed time, inserts per second and per-insert
// latency percentiles in microseconds. `--journal` is the server-shaped variant: each row also appends a
// `__journal` row, inside `BEGIN IMMEDIATE` / `SAVEPOINT` / `RELEASE` / `COMMIT` as the writer does for one
// create; the plain mode is the reference the benchmark reports. The file is made afresh unless `--keep` is
// given, in which case rows are added to the table a previous run left (the benchmark keeps one file across
// its rounds, as the server keeps its class table).
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `sqlite-inserts` subcommand: the raw SQLite reference of the data API benchmark.
enum SQLiteInserts {
    /// What the command line asks for.
    struct Options {
        var path = ""
        var seconds = 5.0
        var count: Int?
        var journal = false
        var keep = false
        var synchronous = "NORMAL"
    }

    /// Reads the command line (starting with `sqlite-inserts`); exits with a message when it is wrong.
    static func parseOptions(_ arguments: [String]) -> Options {
        guard arguments.first == "sqlite-inserts" else {
            fail(
                "usage: bmob-bench sqlite-inserts --path FILE [--seconds S | --count N] [--journal] [--keep]"
                    + " [--synchronous normal|full]")
        }
        var options = Options()
        var rest = arguments.dropFirst()
        func value(_ flag: String) -> String {
            guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--path": options.path = value(flag)
            case "--seconds":
                guard let seconds = Double(value(flag)), seconds > 0 else { fail("--seconds needs a positive number") }
                options.seconds = seconds
            case "--count":
                guard let count = Int(value(flag)), count > 0 else { fail("--count needs a positive integer") }
                options.count = count
            case "--journal": options.journal = true
            case "--keep": options.keep = true
            case "--synchronous":
                let mode = value(flag).uppercased()
                guard mode == "NORMAL" || mode == "FULL" else { fail("--synchronous is normal or full") }
                options.synchronous = mode
            default: fail("unknown option \(flag)")
            }
        }
        if options.path.isEmpty { fail("--path is required") }
        return options
    }

    /// The `fraction` percentile of sorted nanoseconds, in microseconds.
    static func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return Double(sorted[max(0, index)]) / 1000
    }

    /// Inserts rows as the options say and prints the JSON result.
    static func run(_ options: Options) {
        let database = Database(path: options.path, synchronous: options.synchronous, fresh: !options.keep)
        database.execute(
            """
            CREATE TABLE IF NOT EXISTS "Bench" (
                objectId TEXT PRIMARY KEY NOT NULL,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                acl TEXT,
                data TEXT NOT NULL
            )
            """)
        if options.journal {
            database.execute(
                """
                CREATE TABLE IF NOT EXISTS "__journal" (
                    seq INTEGER PRIMARY KEY,
                    className TEXT NOT NULL,
                    objectId TEXT,
                    op TEXT NOT NULL,
                    "before" TEXT,
                    "after" TEXT,
                    caller TEXT,
                    time INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS "__journal_object" ON "__journal" (className, objectId, seq);
                """)
        }
        let insert = Statement(
            database, #"INSERT INTO "Bench" (objectId, createdAt, updatedAt, acl, data) VALUES (?, ?, ?, ?, ?)"#)
        let journal =
            options.journal
            ? Statement(
                database,
                #"INSERT INTO "__journal" (className, objectId, op, "before", "after", caller, time) VALUES (?, ?, ?, ?, ?, ?, ?)"#
            )
            : nil
        let begin = Statement(database, "BEGIN IMMEDIATE")
        let savepoint = Statement(database, "SAVEPOINT job")
        let release = Statement(database, "RELEASE job")
        let commit = Statement(database, "COMMIT")

        var random = FastRandom()
        var latencies: [UInt64] = []
        latencies.reserveCapacity(options.count ?? 1 << 20)
        let limit = options.count ?? Int.max
        let budget = UInt64(options.seconds * 1e9)
        let start = monotonicNanoseconds()
        var now = start
        var rows = 0
        while rows < limit && (options.count != nil || now - start < budget) {
            var objectId = random.objectId()
            let score = Int(random.next() % 100_000)
            // The same shape as the bench's create body, {"name":…,"score":…}.
            let data = #"{"name":"w-\#(rows)","score":\#(score)}"#
            let time = wallMilliseconds()
            let before = monotonicNanoseconds()
            if journal != nil {
                begin.run()
                savepoint.run()
            }
            insert.bind(2, time)
            insert.bind(3, time)
            insert.bindNull(4)
            insert.bind(5, data)
            // 40-bit ids collide now and then over a few hundred thousand rows; like the server, take a new one.
            while true {
                insert.bind(1, objectId)
                if insert.insert() { break }
                objectId = random.objectId()
            }
            if let journal {
                journal.bind(1, "Bench")
                journal.bind(2, objectId)
                journal.bind(3, "create")
                journal.bindNull(4)
                journal.bind(
                    5,
                    #"{"ACL":null,"createdAt":\#(time),"data":\#(data),"objectId":"\#(objectId)","updatedAt":\#(time)}"#
                )
                journal.bind(6, "rest")
                journal.bind(7, time)
                journal.run()
                release.run()
                commit.run()
            }
            now = monotonicNanoseconds()
            latencies.append(now - before)
            rows += 1
        }
        let elapsed = Double(now - start) / 1e9
        latencies.sort()
        let mode = options.journal ? "journal" : "single-row"
        let rate = Double(rows) / elapsed
        print(
            #"{"mode":"\#(mode)","synchronous":"\#(options.synchronous)","rows":\#(rows),"seconds":\#(elapsed),"#
                + #""inserts_per_s":\#(rate),"p50_us":\#(percentile(latencies, 0.5)),"#
                + #""p99_us":\#(percentile(latencies, 0.99)),"p999_us":\#(percentile(latencies, 0.999))}"#)
    }
}
