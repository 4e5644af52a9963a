/// What `bmob-bench fanout` prints, as one JSON object (keys in snake case): ``jsonObject``, its own fields with
/// ``deliveries``, ``writes``, ``latency`` and ``errors`` merged in. Durations are in microseconds unless the name
/// says otherwise; memory in KiB or bytes as named.
struct FanoutResult: Encodable {
    // Setup
    var connectionsRequested = 0
    /// Connections subscribed when the measurement began.
    var connectionsSubscribed = 0
    /// Seconds from the first connect to the last subscription.
    var setupSeconds = 0.0
    /// Connections that failed at any point, setup or later.
    var connectionsFailed = 0
    /// Subscribed connections the server closed (or that broke) during the measurement.
    var connectionsDroppedWhileMeasuring = 0

    // Memory
    /// The server's VmRSS after a warm-up create, before any connection.
    var serverRSSBaselineKiB: Int?
    /// The server's VmRSS with every connection subscribed and idle, after the settle time.
    var serverRSSIdleKiB: Int?
    /// The server's VmRSS after the measurement, connections still open.
    var serverRSSAfterKiB: Int?
    /// (idle − baseline) / subscribed connections.
    var bytesPerIdleConnection: Double?

    // Probes: creates one at a time before the measurement, each of which every subscriber must receive.
    /// The fewest connections that received a probe.
    var probeReceived = 0
    /// From a probe create's send to its last delivery: the median of the probes.
    var probeFanoutMilliseconds: Double?
    /// The same for each probe.
    var probeFanoutRoundsMilliseconds: [Double] = []
    /// The probe event's WebSocket frame, header included: what the server writes to each subscriber.
    var probeFrameBytes: Int?

    // Measurement
    /// The schedule, deliveries expected (successful creates × connections requested) and received, the window
    /// and the drain.
    var deliveries = DeliveryWindow()
    /// The writer's creates or publishes: counts, lateness against its schedule (p99 and max), response time.
    var writes = WriterOutcome()
    /// Deliveries whose `seq` was not above the last one the connection saw.
    var outOfOrder = 0
    /// Fewest and most deliveries on a connection subscribed at the start.
    var receivedPerConnectionMin = 0
    var receivedPerConnectionMax = 0
    /// received / windowSeconds.
    var deliveriesPerSecond = 0.0
    /// Write → event latency, from the create's scheduled send time to the delivery's read (p50 … p99.9, max).
    var latency = LatencySummary()

    // Cost
    /// Server CPU seconds during the measurement (all threads), and per delivery.
    var serverCPUSeconds: Double?
    var serverCPUUsPerDelivery: Double?
    /// This client's CPU seconds during the measurement (receive loop and writer).
    var clientCPUSeconds = 0.0

    // Protocol
    var heartbeatsAnswered = 0
    var pingsAnswered = 0
    /// Errors by kind over the whole run, the first of each kind (up to ten kinds) in full.
    var errors = ErrorTally()

    /// The whole result as one flat JSON object: these fields, ``deliveries``, ``writes``, ``latency`` and ``errors``.
    var jsonObject: MergedJSONObject { MergedJSONObject(parts: [self, deliveries, writes, latency, errors]) }

    private enum CodingKeys: String, CodingKey {
        case connectionsRequested = "connections_requested"
        case connectionsSubscribed = "connections_subscribed"
        case setupSeconds = "setup_seconds"
        case connectionsFailed = "connections_failed"
        case connectionsDroppedWhileMeasuring = "connections_dropped_while_measuring"
        case serverRSSBaselineKiB = "server_rss_baseline_kib"
        case serverRSSIdleKiB = "server_rss_idle_kib"
        case serverRSSAfterKiB = "server_rss_after_kib"
        case bytesPerIdleConnection = "bytes_per_idle_connection"
        case probeReceived = "probe_received"
        case probeFanoutMilliseconds = "probe_fanout_ms"
        case probeFrameBytes = "probe_frame_bytes"
        case probeFanoutRoundsMilliseconds = "probe_fanout_rounds_ms"
        case outOfOrder = "out_of_order"
        case receivedPerConnectionMin = "received_per_connection_min"
        case receivedPerConnectionMax = "received_per_connection_max"
        case deliveriesPerSecond = "deliveries_per_s"
        case serverCPUSeconds = "server_cpu_s"
        case serverCPUUsPerDelivery = "server_cpu_us_per_delivery"
        case clientCPUSeconds = "client_cpu_s"
        case heartbeatsAnswered = "heartbeats_answered"
        case pingsAnswered = "pings_answered"
    }
}
