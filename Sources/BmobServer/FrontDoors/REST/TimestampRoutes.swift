import BmobHTTP
import BmobWire

/// `GET /1/timestamp`: the server time, `{"timestamp": <unix seconds>, "datetime": "YYYY-MM-DD HH:MM:SS"}`
/// (see ``TimeService``).
package enum TimestampRoutes {
    /// Adds `GET /1/timestamp`.
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.get, "/1/timestamp", runner: runner) { _, _ in .timestamp }
    }
}
