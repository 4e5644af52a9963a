/// What the writer did while the benchmark measured.
struct FanoutWriterReport {
    /// Creates sent.
    var attempted = 0
    /// Creates answered with a 2xx status; each should reach every subscriber.
    var succeeded = 0
    /// Creates answered with another status, or lost to a socket error or timeout.
    var failed = 0
    /// The first failure, for the report.
    var firstFailure: String?
    /// When the first create was due (monotonic nanoseconds).
    var start: UInt64 = 0
    /// When the last create was answered (monotonic nanoseconds).
    var end: UInt64 = 0
    /// How late each create left against its schedule, in nanoseconds; the latency a delivery reports
    /// counts from the schedule, so a slow write path shows up there rather than disappearing.
    var lag = LatencyHistogram()
    /// Time from sending a create to its response, in nanoseconds.
    var responseTime = LatencyHistogram()
}
