import BmobCrypto
import BmobHTTP
import BmobWire

/// `GET /metrics` on the main port: the Prometheus text of ``ServerMetrics``, for a scraper that presents the
/// `metricsToken` setting as `Authorization: Bearer <token>`. Off (404) when no token is set; the admin port
/// (``AdminResponder``) serves the same text without a token to this machine.
package enum MetricsRoutes {
    /// The exposition format's content type.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    package static func register(in router: inout BmobRouter) {
        router.open(.get, "/metrics") { request in
            guard let token = request.server.configuration.metricsToken else {
                return BmobAPIError.body(
                    status: .notFound, code: 404,
                    message: "metrics are off on this port: set metricsToken (and send it as a bearer token) or adminPort")
            }
            let presented = request.http.headers["Authorization"].flatMap { header -> String? in
                guard header.hasPrefix("Bearer ") else { return nil }
                return String(header.dropFirst("Bearer ".count))
            }
            guard let presented, ConstantTime.equals(Array(presented.utf8), Array(token.utf8)) else {
                var refused = BmobAPIError.body(
                    status: .unauthorized, code: 401, message: "metrics need 'Authorization: Bearer <metricsToken>'")
                refused.headers.add(name: "WWW-Authenticate", value: "Bearer")
                return refused
            }
            return exposition(request.server.metrics)
        }
    }

    static func exposition(_ metrics: ServerMetrics) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": contentType, "Cache-Control": "no-store"],
            body: Array(metrics.render().utf8))
    }
}
