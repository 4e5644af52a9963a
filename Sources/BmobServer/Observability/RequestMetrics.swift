import BmobIO

/// Requests by route and status, and their durations by route: what `/metrics` shows of the HTTP front doors.
///
/// Routes are known when the responder is made, so each has a slot by its index; requests no route matched, and
/// those the HTTP layer answered itself (malformed, too large, timed out, overloaded), have slots of their own.
package final class RequestMetrics: Sendable {
    /// `METHOD pattern` per slot: the routes' in index order, then ``unmatchedSlot``, ``rejectedSlot``.
    package let routes: [String]
    private let durations: [MetricHistogram]
    /// Counts by slot and status code. One lock for all: a dictionary increment is a few tens of nanoseconds.
    private let counts = LockedValue<[Key: Int]>([:])

    private struct Key: Hashable {
        var slot: Int
        var status: Int
    }

    /// Slots for `routes` (`METHOD pattern`, in route index order).
    package init(routes: [String]) {
        self.routes = routes + ["unmatched", "rejected"]
        self.durations = self.routes.map { _ in MetricHistogram.durations() }
    }

    /// The slot of requests that matched no route.
    package var unmatchedSlot: Int { routes.count - 2 }
    /// The slot of requests the HTTP layer refused before any route ran.
    package var rejectedSlot: Int { routes.count - 1 }

    /// Counts one answered request.
    package func record(slot: Int, status: Int, nanoseconds: UInt64?) {
        counts.withLock { $0[Key(slot: slot, status: status), default: 0] += 1 }
        if let nanoseconds { durations[slot].observe(nanoseconds) }
    }

    /// Writes `bmob_http_requests_total` and `bmob_http_request_duration_seconds`.
    package func write(to writer: inout PrometheusTextWriter) {
        let snapshot = counts.withLock { $0 }
        writer.family("bmob_http_requests_total", type: "counter", help: "HTTP requests answered, by route and status.")
        for (key, count) in snapshot.sorted(by: { ($0.key.slot, $0.key.status) < ($1.key.slot, $1.key.status) }) {
            writer.sample("bmob_http_requests_total", ["route": routes[key.slot], "status": String(key.status)], count)
        }
        writer.family(
            "bmob_http_request_duration_seconds", type: "histogram",
            help: "Time from a request's arrival until its response was ready, by route.")
        let used = Set(snapshot.keys.map(\.slot))
        for slot in used.sorted() where slot != rejectedSlot {
            writer.histogram("bmob_http_request_duration_seconds", [("route", routes[slot])], durations[slot])
        }
    }
}
