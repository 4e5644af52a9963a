/// Write → delivery latency percentiles of a benchmark, as result fields `latency_p50_us` … `latency_max_us`
/// (microseconds). Part of a result's JSON object through ``MergedJSONObject``.
struct LatencySummary: Encodable {
    var p50Us = 0.0
    var p90Us = 0.0
    var p99Us = 0.0
    /// Only where the result reports it.
    var p999Us: Double?
    var maxUs = 0.0

    /// Nothing measured yet.
    init() {}

    /// The percentiles of `histogram` (nanoseconds).
    ///
    /// - Parameters:
    ///   - histogram: the latencies.
    ///   - includingP999: whether the result reports the 99.9th percentile too.
    init(_ histogram: LatencyHistogram, includingP999: Bool) {
        p50Us = Double(histogram.percentile(0.5)) / 1000
        p90Us = Double(histogram.percentile(0.9)) / 1000
        p99Us = Double(histogram.percentile(0.99)) / 1000
        if includingP999 { p999Us = Double(histogram.percentile(0.999)) / 1000 }
        maxUs = Double(histogram.maximum) / 1000
    }

    private enum CodingKeys: String, CodingKey {
        case p50Us = "latency_p50_us"
        case p90Us = "latency_p90_us"
        case p99Us = "latency_p99_us"
        case p999Us = "latency_p999_us"
        case maxUs = "latency_max_us"
    }
}
