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
    /// Sockets set up at once (upgrade, `Connect`, `ModifyQuerySet`, first result), REST creates per second (20)
    /// while measuring latency and for how long, the settle time before the measurement, the drain for results
    /// still on their way, the setup timeout, the server (for its CPU time).
    var load = SubscriberLoadOptions(rate: 20)
    /// Seconds each throughput load (REST creates, mutations) runs; 0 skips them.
    var throughputSeconds = 5.0
    /// Requests in flight in each throughput load: REST keep-alive connections with one request each; mutations
    /// pipelined on one socket, and one each on as many sockets.
    var inFlight = 32

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
            case "--throughput-seconds": options.throughputSeconds = reader.number(flag)
            case "--in-flight": options.inFlight = reader.count(flag)
            default:
                if !options.load.read(flag, from: &reader) { fail("unknown option \(flag)\n\(usage)") }
            }
        }
        if options.port == 0 { fail("--port is required\n\(usage)") }
        if options.appId.isEmpty || options.restKey.isEmpty { fail("--app-id and --rest-key are required") }
        if options.load.rate <= 0 || options.load.seconds <= 0 { fail("--rate and --seconds must be positive") }
        if options.queries > options.subscribers { fail("--queries must not exceed --subscribers") }
        // The app id lands in a URL path and the table name in JSON and a path, both unescaped.
        for (flag, text) in [("--app-id", options.appId), ("--table", options.table)]
        where !CommandLineArguments.isName(text, allowingHyphen: false) {
            fail("\(flag) must be letters, digits and underscores")
        }
        return options
    }
}
