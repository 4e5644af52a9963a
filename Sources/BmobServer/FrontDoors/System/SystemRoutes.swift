import BmobHTTP
import BmobWire

/// Routes that belong to the server rather than to an app.
package enum SystemRoutes {
    package static func register(in router: inout BmobRouter) {
        // Liveness for load balancers and scripts; no app headers needed.
        router.open(.get, "/health") { _ in
            .json(["status": "ok"])
        }
    }
}
