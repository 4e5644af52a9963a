import BmobHTTP
import BmobWire

/// REST roles: `POST /1/roles` (create), `GET /1/roles` (query), and `GET`, `PUT`, `DELETE`
/// `/1/roles/<id>`: the operations of the class `_Role`, which the runner gives to ``RoleService`` for writes.
package enum RoleRoutes {
    /// Adds the role routes to `router`.
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.post, "/1/roles", runner: runner) { request, _ in
            .create(className: RoleService.className, body: try request.jsonObjectBody())
        }
        ManagedClassReadRoutes.register(in: &router, path: "/1/roles", className: RoleService.className, runner: runner)
        router.operation(.put, "/1/roles/:objectId", runner: runner) { request, _ in
            .update(className: RoleService.className, objectId: request.parameter("objectId"), body: try request.jsonObjectBody())
        }
        router.operation(.delete, "/1/roles/:objectId", runner: runner) { request, _ in
            .delete(className: RoleService.className, objectId: request.parameter("objectId"))
        }
    }
}
