/// What one ``ThroughputLoad`` measured.
struct ThroughputOutcome: Encodable {
    /// `rest_creates` or `mutations`.
    var kind = ""
    /// A label for the report: the kind, sockets and depth.
    var name = ""
    /// Connections (REST) or sync sockets (mutations).
    var sockets = 0
    /// Requests kept in flight on each.
    var inFlightPerSocket = 0
    var seconds = 0.0
    /// Successful answers (2xx, `"success":true`) that arrived within the measured seconds.
    var completed = 0
    /// Failed answers within them.
    var failed = 0
    /// completed / seconds.
    var perSecond = 0.0
    /// Request → answer, p50 and p99.
    var responseP50Us = 0.0
    var responseP99Us = 0.0
    /// Server CPU seconds during the load, and per completed request.
    var serverCPUSeconds: Double?
    var serverCPUUsPerRequest: Double?
    /// The first failure, for the report.
    var firstFailure: String?

    private enum CodingKeys: String, CodingKey {
        case kind
        case name
        case sockets
        case inFlightPerSocket = "in_flight_per_socket"
        case seconds
        case completed
        case failed
        case perSecond = "per_s"
        case responseP50Us = "response_p50_us"
        case responseP99Us = "response_p99_us"
        case serverCPUSeconds = "server_cpu_s"
        case serverCPUUsPerRequest = "server_cpu_us_per_request"
        case firstFailure = "first_failure"
    }
}
