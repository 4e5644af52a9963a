/// The measured stretch of a fan-out style benchmark: the write schedule, the deliveries expected and received,
/// and how long they took to arrive, as result fields (`rate`, `seconds`, `expected`, `received`, `missed`,
/// `window_seconds`, `drain_seconds`). Part of a result's JSON object through ``MergedJSONObject``; what counts as
/// one delivery is the benchmark's.
struct DeliveryWindow: Encodable {
    /// Writes per second, and for how many seconds.
    var rate = 0.0
    var seconds = 0.0
    /// Deliveries the successful (or scheduled) writes should have made.
    var expected = 0
    /// Deliveries that arrived.
    var received = 0
    /// expected − received, after the drain.
    var missed = 0
    /// max(seconds, from the first write's schedule to the last delivery).
    var windowSeconds = 0.0
    /// Seconds after the last write's response until the last delivery (or the drain limit).
    var drainSeconds = 0.0

    /// Nothing measured yet.
    init() {}

    /// The window of a measurement that ended with `report`.
    ///
    /// - Parameters:
    ///   - rate: writes per second.
    ///   - seconds: how long the writes went on.
    ///   - expected: deliveries expected.
    ///   - received: deliveries that arrived.
    ///   - lastDelivery: when the last one arrived (monotonic nanoseconds; 0 for none).
    ///   - report: what the writer did, for when its schedule started and its last write was answered.
    init(
        rate: Double, seconds: Double, expected: Int, received: Int, lastDelivery: UInt64, report: FanoutWriterReport
    ) {
        self.rate = rate
        self.seconds = seconds
        self.expected = expected
        self.received = received
        missed = expected - received
        windowSeconds = max(seconds, lastDelivery > report.start ? Double(lastDelivery - report.start) / 1e9 : 0)
        drainSeconds = lastDelivery > report.end ? Double(lastDelivery - report.end) / 1e9 : 0
    }

    private enum CodingKeys: String, CodingKey {
        case rate
        case seconds
        case expected
        case received
        case missed
        case windowSeconds = "window_seconds"
        case drainSeconds = "drain_seconds"
    }
}
