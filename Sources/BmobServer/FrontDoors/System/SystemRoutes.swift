import BmobHTTP
import BmobWire

/// Routes that belong to the server rather than to an app.
package enum SystemRoutes {
    package static func register(in router: inout BmobRouter) {
        // Liveness for load balancers and scripts; no app headers needed. The answer never changes.
        let healthy = HTTPResponse.json(["status": "ok"])
        router.open(.get, "/health") { _ in healthy }
    }
}
