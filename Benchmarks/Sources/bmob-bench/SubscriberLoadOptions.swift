/// How a many-subscriber benchmark (``FanoutOptions``, ``LiveQueryOptions``) paces itself: connections set up at
/// once and the time the whole setup may take, the write rate and duration, the quiet and drain times, and the
/// server process to sample.
struct SubscriberLoadOptions {
    /// Connections being set up at once.
    var batch = 256
    /// Writes (REST creates, publishes) per second while measuring.
    var rate: Double
    /// How long the writes go on, in seconds.
    var seconds = 10.0
    /// Quiet seconds between the end of the setup and what follows it.
    var settle = 2.0
    /// Seconds to wait after the last write for deliveries still on their way.
    var drain = 10.0
    /// Seconds the whole setup may take; connections not subscribed by then count as failed.
    var setupTimeout = 180.0
    /// The server process, for its CPU time (and resident memory, where reported); without it those are left out.
    var serverPID: Int32?

    /// The defaults, with `rate` writes per second.
    init(rate: Double) {
        self.rate = rate
    }

    /// Reads `flag` (`--batch`, `--rate`, `--seconds`, `--settle`, `--drain`, `--setup-timeout`, `--server-pid`)
    /// and its value when it is one of these options.
    ///
    /// - Returns: whether it was.
    mutating func read(_ flag: String, from reader: inout CommandLineArguments) -> Bool {
        switch flag {
        case "--batch": batch = reader.count(flag)
        case "--rate": rate = reader.number(flag)
        case "--seconds": seconds = reader.number(flag)
        case "--settle": settle = reader.number(flag)
        case "--drain": drain = reader.number(flag)
        case "--setup-timeout": setupTimeout = reader.number(flag)
        case "--server-pid": serverPID = reader.processID(flag)
        default: return false
        }
        return true
    }
}
