/// What `bmob-bench live-queries` is asked to do, read from its command line.
///
///     bmob-bench live-queries --port P --app-id ID --rest-key KEY [--host 127.0.0.1] [--table items]
///                       [--subscribers 1000] [--queries 100] [--limit 10] [--batch 256] [--rate 20]
///                       [--seconds 10] [--settle 2] [--drain 10] [--setup-timeout 180]
///                       [--throughput-seconds 5] [--in-flight 32] [--server-pid PID]
struct LiveQueryOptions {
    var host = "127.0.0.1"
    var port: UInt16 = 0
    var appId = ""
    var restKey = ""
    /// The class written and queried.
    var table = "items"
    /// Sync WebSockets, each with one live query.
    var subscribers = 1000
    /// Distinct queries (`<table>:list` with `where: {"group": g}`), the subscribers spread evenly over them.
    var queries = 100
    /// Each query's `limit` (its `order` is `-createdAt`, so a new object is always in the result).
    var limit = 10
    /// Sockets being set up at once (upgrade, `Connect`, `ModifyQuerySet`, first result).
    var batch = 256
    /// REST creates per second while measuring latency.
    var rate = 20.0
    /// How long the creates go on, in seconds.
    var seconds = 10.0
    /// Quiet seconds between the last first result and the measurement.
    var settle = 2.0
    /// Seconds to wait after the last create for results still on their way.
    var drain = 10.0
    /// Seconds the whole setup may take.
    var setupTimeout = 180.0
    /// Seconds each throughput load (REST creates, mutations) runs; 0 skips them.
    var throughputSeconds = 5.0
    /// Requests in flight in each throughput load: REST keep-alive connections with one request each; mutations
    /// pipelined on one socket, and one each on as many sockets.
    var inFlight = 32
    /// The server process, for its CPU time; without it that is left out.
    var serverPID: Int32?

    static let usage = """
        usage: bmob-bench live-queries --port P --app-id ID --rest-key KEY [--host H] [--table NAME]
               [--subscribers N] [--queries N] [--limit N] [--batch N] [--rate WRITES_PER_S] [--seconds S]
               [--settle S] [--drain S] [--setup-timeout S] [--throughput-seconds S] [--in-flight N]
               [--server-pid PID]
        """

    /// Parses the arguments after `live-queries`; exits with a message when they are wrong.
    ///
    /// - Parameter arguments: the command line after the subcommand name.
    /// - Returns: the options.
    static func parse(_ arguments: [String]) -> LiveQueryOptions {
        var options = LiveQueryOptions()
        var reader = CommandLineArguments(arguments, usage: usage)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--host": options.host = reader.value(flag)
            case "--port": options.port = reader.port(flag)
            case "--app-id": options.appId = reader.value(flag)
            case "--rest-key": options.restKey = reader.value(flag)
            case "--table": options.table = reader.value(flag)
            case "--subscribers": options.subscribers = reader.count(flag)
            case "--queries": options.queries = reader.count(flag)
            case "--limit": options.limit = reader.count(flag)
            case "--batch": options.batch = reader.count(flag)
            case "--rate": options.rate = reader.number(flag)
            case "--seconds": options.seconds = reader.number(flag)
            case "--settle": options.settle = reader.number(flag)
            case "--drain": options.drain = reader.number(flag)
            case "--setup-timeout": options.setupTimeout = reader.number(flag)
            case "--throughput-seconds": options.throughputSeconds = reader.number(flag)
            case "--in-flight": options.inFlight = reader.count(flag)
            case "--server-pid": options.serverPID = reader.processID(flag)
            default: fail("unknown option \(flag)\n\(usage)")
            }
        }
        if options.port == 0 { fail("--port is required\n\(usage)") }
        if options.appId.isEmpty || options.restKey.isEmpty { fail("--app-id and --rest-key are required") }
        if options.rate <= 0 || options.seconds <= 0 { fail("--rate and --seconds must be positive") }
        if options.queries > options.subscribers { fail("--queries must not exceed --subscribers") }
        // The app id lands in a URL path and the table name in JSON and a path, both unescaped.
        for (flag, text) in [("--app-id", options.appId), ("--table", options.table)]
        where !CommandLineArguments.isName(text, allowingHyphen: false) {
            fail("\(flag) must be letters, digits and underscores")
        }
        return options
    }
}
