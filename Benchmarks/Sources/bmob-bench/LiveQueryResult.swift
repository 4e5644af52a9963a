/// What `bmob-bench live-queries` prints, as one JSON object (keys in snake case): ``jsonObject``, its own fields
/// with ``deliveries``, ``writes``, ``latency`` and ``errors`` merged in. Durations are in microseconds unless the
/// name says otherwise.
struct LiveQueryResult: Encodable {
    // Setup
    var subscribersRequested = 0
    /// Distinct live queries the subscribers are spread over.
    var queries = 0
    /// Subscribers with their first result when the measurement began.
    var subscribersSubscribed = 0
    /// Seconds from the first connect to the last first result.
    var setupSeconds = 0.0
    /// From `ModifyQuerySet` to the first `QueryUpdated` (p50, max), during the setup's parallel batches.
    var firstResultP50Us = 0.0
    var firstResultMaxUs = 0.0
    /// Subscribers that failed at any point, setup or later.
    var subscribersFailed = 0
    /// Subscribers the server closed (or that broke) during the measurement.
    var subscribersDroppedWhileMeasuring = 0

    // Measurement
    /// The schedule, (write, subscriber of its group) pairs expected for every scheduled write and received (the
    /// write showed up in one of the subscriber's results), the window and the drain.
    var deliveries = DeliveryWindow()
    /// The writer's REST creates: counts, lateness against its schedule (max), response time.
    var writes = WriterOutcome()
    /// Writes of another group found in a subscriber's result (should be 0).
    var foreignWrites = 0
    /// `Transition`s with a `QueryUpdated` received while measuring.
    var transitions = 0
    /// Write → new result latency, from the create's scheduled send time to the read of the first `Transition`
    /// holding it, over every (write, subscriber) pair (p50, p90, p99, max).
    var latency = LatencySummary()

    // Cost
    /// Server CPU seconds during the measurement (all threads), and per successful write.
    var serverCPUSeconds: Double?
    var serverCPUUsPerWrite: Double?
    /// This client's CPU seconds during the measurement.
    var clientCPUSeconds = 0.0
    var pingsAnswered = 0

    /// REST creates and sync mutations back to back, after the subscribers closed.
    var throughput: [ThroughputOutcome] = []

    /// Errors by kind over the whole run, the first of each kind (up to ten kinds) in full.
    var errors = ErrorTally()

    /// The whole result as one flat JSON object: these fields, ``deliveries``, ``writes``, ``latency`` and ``errors``.
    var jsonObject: MergedJSONObject { MergedJSONObject(parts: [self, deliveries, writes, latency, errors]) }

    private enum CodingKeys: String, CodingKey {
        case subscribersRequested = "subscribers_requested"
        case queries
        case subscribersSubscribed = "subscribers_subscribed"
        case setupSeconds = "setup_seconds"
        case firstResultP50Us = "first_result_p50_us"
        case firstResultMaxUs = "first_result_max_us"
        case subscribersFailed = "subscribers_failed"
        case subscribersDroppedWhileMeasuring = "subscribers_dropped_while_measuring"
        case foreignWrites = "foreign_writes"
        case transitions
        case serverCPUSeconds = "server_cpu_s"
        case serverCPUUsPerWrite = "server_cpu_us_per_write"
        case clientCPUSeconds = "client_cpu_s"
        case pingsAnswered = "pings_answered"
        case throughput
    }
}
