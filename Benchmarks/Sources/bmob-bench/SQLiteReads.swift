// The raw SQLite references beside the server's reads: a primary-key read and an indexed range read of 20 rows,
// on an app's own database file, through the statements the server sends (the range read's and the count's text
// come from the store's own query compiler, with the anonymous caller's ACL filter), optionally followed by
// rendering the JSON the server answers.
//
//   bmob-bench sqlite-reads --path FILE --mode get|query|count [--render] [--seconds S | --count N]
//                           [--table Score] [--field score]
//
// FILE is an app's `data.sqlite` holding a class `--table` with a numeric, indexed `--field` (as the data
// benchmark seeds it). `get` reads one of 2,000 ids (drawn from the table) by primary key; `query` reads the 20
// highest rows below a threshold drawn from 10,000…99,999; `count` counts the rows below it. Each read runs as
// one autocommit statement on one read-only connection, prepared once. With `--render` each read also builds
// the response body: the stored fields with `createdAt`, `objectId`, `updatedAt` (and `ACL`) spliced in, in
// `{"results":[…]}` for a query, `{"count":n,"results":[]}` for a count. Prints one JSON object: the mode, how
// many reads, the elapsed time, reads per second and the bytes rendered.
import BmobStore
import BmobWire
import CSQLite

/// The `sqlite-reads` subcommand: the raw SQLite references of the read path.
enum SQLiteReads {
    /// What the command line asks for.
    struct Options {
        var path = ""
        var mode = "get"
        var render = false
        var seconds = 5.0
        var count: Int?
        var table = "Score"
        var field = "score"
    }

    /// Reads the command line (starting with `sqlite-reads`); exits with a message when it is wrong.
    static func parseOptions(_ arguments: [String]) -> Options {
        let usage =
            "usage: bmob-bench sqlite-reads --path FILE --mode get|query|count [--render] [--seconds S | --count N]"
            + " [--table Score] [--field score]"
        guard arguments.first == "sqlite-reads" else { fail(usage) }
        var options = Options()
        var rest = arguments.dropFirst()
        func value(_ flag: String) -> String {
            guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--path": options.path = value(flag)
            case "--mode":
                options.mode = value(flag)
                guard ["get", "query", "count"].contains(options.mode) else { fail("--mode is get, query or count") }
            case "--render": options.render = true
            case "--seconds":
                guard let seconds = Double(value(flag)), seconds > 0 else { fail("--seconds needs a positive number") }
                options.seconds = seconds
            case "--count":
                guard let count = Int(value(flag)), count > 0 else { fail("--count needs a positive integer") }
                options.count = count
            case "--table": options.table = value(flag)
            case "--field": options.field = value(flag)
            default: fail("unknown option \(flag)\n\(usage)")
            }
        }
        if options.path.isEmpty { fail("--path is required\n\(usage)") }
        return options
    }

    /// The statement the server runs for `mode` on `table` (its `?` values come per read).
    static func statement(_ options: Options) -> SQLFragment {
        let table = "\"\(options.table)\""
        if options.mode == "get" {
            return SQLFragment("SELECT createdAt, updatedAt, acl, data FROM \(table) WHERE objectId = ?")
        }
        let compiler = SQLQueryCompiler(
            dialect: SQLiteDialect(),
            classes: [options.table: [options.field: FieldSchema(type: .number), "name": FieldSchema(type: .string)]])
        var query = FindQuery(
            className: options.table, condition: try? WhereParser.parse(text: #"{"\#(options.field)":{"$lt":50000}}"#),
            order: [OrderKey(path: options.field, descending: true)], limit: 20)
        query.readers = ["*"]
        let compiled = options.mode == "query" ? try? compiler.find(query) : try? compiler.count(query)
        guard let compiled else { fail("the query compiler refused the benchmark's query") }
        return compiled
    }

    /// Runs the reads the options ask for and prints the JSON result.
    static func run(_ options: Options) {
        let database = Database(path: options.path, synchronous: "NORMAL", fresh: false)
        let ids = Statement(database, "SELECT objectId FROM \"\(options.table)\" ORDER BY random() LIMIT 2000")
        var objectIds: [String] = []
        while ids.step() { objectIds.append(ids.text(0)) }
        guard !objectIds.isEmpty else { fail("\(options.table) holds no rows") }
        let fragment = statement(options)
        let read = Statement(database, fragment.sql)
        // Which `?` takes the threshold: the first number the compiler bound (the others are the ACL's readers).
        let thresholdIndex = Int32((fragment.arguments.firstIndex { if case .real = $0 { true } else if case .integer = $0 { true } else { false } } ?? 0) + 1)
        var random = FastRandom()
        let limit = options.count ?? Int.max
        let budget = UInt64(options.seconds * 1e9)
        let start = monotonicNanoseconds()
        var now = start
        var reads = 0
        var rendered = 0
        var body: [UInt8] = []
        while reads < limit && (options.count != nil || now - start < budget) {
            var objectId = ""
            if options.mode == "get" {
                objectId = objectIds[Int(random.next() % UInt64(objectIds.count))]
                read.bind(1, objectId)
            } else {
                for (index, argument) in fragment.arguments.enumerated() {
                    if case .text(let text) = argument { read.bind(Int32(index + 1), text) }
                }
                read.bind(thresholdIndex, Int64(10_000 + random.next() % 90_000))
            }
            body.removeAll(keepingCapacity: true)
            if options.mode == "count" {
                if read.step(), options.render {
                    body.append(contentsOf: #"{"count":"#.utf8)
                    ASCIIDecimal.append(sqlite3_column_int64(read.handle, 0), to: &body)
                    body.append(contentsOf: #","results":[]}"#.utf8)
                }
            } else {
                let columnOffset: Int32 = options.mode == "get" ? -1 : 0
                if options.mode == "query", options.render { body.append(contentsOf: #"{"results":["#.utf8) }
                var rows = 0
                while read.step() {
                    if options.render {
                        if rows > 0 { body.append(UInt8(ascii: ",")) }
                        append(
                            read, columnOffset: columnOffset, objectId: options.mode == "get" ? objectId : read.text(0),
                            to: &body)
                    }
                    rows += 1
                }
                if options.mode == "query", options.render { body.append(contentsOf: "]}".utf8) }
            }
            read.reset()
            rendered += body.count
            reads += 1
            if reads & 63 == 0 { now = monotonicNanoseconds() }
        }
        now = monotonicNanoseconds()
        let elapsed = Double(now - start) / 1e9
        print(
            #"{"mode":"\#(options.mode)","render":\#(options.render),"reads":\#(reads),"seconds":\#(elapsed),"#
                + #""reads_per_s":\#(Double(reads) / elapsed),"bytes_rendered":\#(rendered)}"#)
    }

    /// One object's JSON as the server splices it: the stored fields, then the system fields.
    private static func append(_ read: Statement, columnOffset: Int32, objectId: String, to body: inout [UInt8]) {
        let createdAt = sqlite3_column_int64(read.handle, columnOffset + 2)
        let updatedAt = sqlite3_column_int64(read.handle, columnOffset + 3)
        let data = bytes(read, column: columnOffset + 5)
        if data.count > 2 {
            body.append(contentsOf: UnsafeBufferPointer(rebasing: data[..<(data.count - 1)]))
            body.append(UInt8(ascii: ","))
        } else {
            body.append(UInt8(ascii: "{"))
        }
        append(#""createdAt":"#, to: &body)
        BmobDateFormat.appendJSONString(secondsSince1970: createdAt / 1000, to: &body)
        append(#","objectId":"#, to: &body)
        JSONValue.appendString(objectId, to: &body)
        append(#","updatedAt":"#, to: &body)
        BmobDateFormat.appendJSONString(secondsSince1970: updatedAt / 1000, to: &body)
        if sqlite3_column_type(read.handle, columnOffset + 4) != SQLITE_NULL {
            append(#","ACL":"#, to: &body)
            body.append(contentsOf: bytes(read, column: columnOffset + 4))
        }
        body.append(UInt8(ascii: "}"))
    }

    /// A column's bytes, valid until the statement steps again.
    private static func bytes(_ read: Statement, column: Int32) -> UnsafeBufferPointer<UInt8> {
        // The pointer first, then its length, as SQLite asks.
        let start = sqlite3_column_blob(read.handle, column)
        let count = Int(sqlite3_column_bytes(read.handle, column))
        guard count > 0, let start else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    }

    private static func append(_ text: StaticString, to body: inout [UInt8]) {
        text.withUTF8Buffer { body.append(contentsOf: $0) }
    }
}
