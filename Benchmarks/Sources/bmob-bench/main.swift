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

struct Options {
    var path = ""
    var seconds = 5.0
    var count: Int?
    var journal = false
    var keep = false
    var synchronous = "NORMAL"
}

func fail(_ message: String) -> Never {
    let line = "bmob-bench: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
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

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func wallMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// A connection opened with the store's flags and pragmas.
final class Database {
    let handle: OpaquePointer

    init(path: String, synchronous: String, fresh: Bool) {
        if fresh {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &opened, flags, nil) == SQLITE_OK, let opened else {
            fail("cannot open \(path)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5000)
        let mode = Statement(self, "PRAGMA journal_mode = WAL")
        guard mode.step(), mode.text(0).lowercased() == "wal" else { fail("the database cannot use WAL") }
        execute("PRAGMA synchronous = \(synchronous)")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            fail("\(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
        }
    }
}

/// A prepared statement, persistent like the store's cached ones.
final class Statement {
    let database: Database
    let handle: OpaquePointer

    init(_ database: Database, _ sql: String) {
        self.database = database
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            fail("\(String(cString: sqlite3_errmsg(database.handle))) in: \(sql)")
        }
        handle = prepared
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ text: String) {
        let code = text.utf8CString.withUnsafeBufferPointer { buffer in
            CSQLite_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1))
        }
        check(code)
    }

    func bind(_ index: Int32, _ integer: Int64) {
        check(sqlite3_bind_int64(handle, index, integer))
    }

    func bindNull(_ index: Int32) {
        check(sqlite3_bind_null(handle, index))
    }

    /// Steps once; `true` when a row is available.
    @discardableResult
    func step() -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        check(code == SQLITE_DONE ? SQLITE_OK : code)
        return false
    }

    /// Runs an INSERT; `false` when the primary key is taken (the bindings stay, for another try).
    func insert() -> Bool {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        if code == SQLITE_CONSTRAINT | (6 << 8) { return false }  // SQLITE_CONSTRAINT_PRIMARYKEY
        check(code == SQLITE_DONE ? SQLITE_OK : code)
        sqlite3_clear_bindings(handle)
        return true
    }

    /// Runs to completion and resets.
    func run() {
        while step() {}
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }

    private func check(_ code: Int32) {
        guard code == SQLITE_OK else {
            fail("SQLite error \(code): \(String(cString: sqlite3_errmsg(database.handle)))")
        }
    }
}

/// xorshift64*: ids and scores without a system call per row, so the reference measures SQLite alone.
struct FastRandom {
    var state: UInt64
    /// The last objectId's value.
    var lastId: UInt64

    init() {
        var seed = UInt64(0)
        while seed == 0 { seed = UInt64.random(in: 1...UInt64.max) }
        state = seed
        lastId = UInt64.random(in: 0..<(1 << 39))
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A 10-character hex objectId as the server makes them: ascending by a random stride of 1…4096.
    mutating func objectId() -> String {
        lastId = (lastId + 1 + next() % 4096) & ((1 << 40) - 1)
        let hex = String(lastId, radix: 16)
        return String(repeating: "0", count: 10 - hex.count) + hex
    }
}

func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return Double(sorted[max(0, index)]) / 1000
}

func run(_ options: Options) {
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
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
    let journal = options.journal
        ? Statement(
            database,
            #"INSERT INTO "__journal" (className, objectId, op, "before", "after", caller, time) VALUES (?, ?, ?, ?, ?, ?, ?)"#)
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
                5, #"{"ACL":null,"createdAt":\#(time),"data":\#(data),"objectId":"\#(objectId)","updatedAt":\#(time)}"#)
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

run(parseOptions(Array(CommandLine.arguments.dropFirst())))
