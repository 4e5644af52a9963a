/// What the writer thread (``FanoutWriter``) did while a benchmark measured, as result fields (keys in snake
/// case, durations in microseconds). Part of a result's JSON object through ``MergedJSONObject``.
struct WriterOutcome: Encodable {
    var writesAttempted = 0
    var writesSucceeded = 0
    var writesFailed = 0
    var firstWriteFailure: String?
    /// Writer lateness against its schedule: p99 (only where the result reports it) and max.
    var writeLagP99Us: Double?
    var writeLagMaxUs = 0.0
    /// Write (create or publish) response time (p50, p99).
    var writeResponseP50Us = 0.0
    var writeResponseP99Us = 0.0

    /// Nothing written yet.
    init() {}

    /// The fields of a writer's report.
    ///
    /// - Parameters:
    ///   - report: what the writer measured.
    ///   - includingLagP99: whether the result reports the lag's p99 too.
    init(report: FanoutWriterReport, includingLagP99: Bool) {
        writesAttempted = report.attempted
        writesSucceeded = report.succeeded
        writesFailed = report.failed
        firstWriteFailure = report.firstFailure
        if includingLagP99 { writeLagP99Us = Double(report.lag.percentile(0.99)) / 1000 }
        writeLagMaxUs = Double(report.lag.maximum) / 1000
        writeResponseP50Us = Double(report.responseTime.percentile(0.5)) / 1000
        writeResponseP99Us = Double(report.responseTime.percentile(0.99)) / 1000
    }

    private enum CodingKeys: String, CodingKey {
        case writesAttempted = "writes_attempted"
        case writesSucceeded = "writes_succeeded"
        case writesFailed = "writes_failed"
        case firstWriteFailure = "first_write_failure"
        case writeLagP99Us = "write_lag_p99_us"
        case writeLagMaxUs = "write_lag_max_us"
        case writeResponseP50Us = "write_response_p50_us"
        case writeResponseP99Us = "write_response_p99_us"
    }
}
