import BmobHTTP
import BmobWire

/// Reads of a class with its own REST path (`/1/users`, `/1/roles`): `GET <path>` queries like
/// `/1/classes/<C>`, `GET <path>/<id>` gets one object with `include` and `keys`. Both are the same operations
/// as `/1/classes`, with the same ACLs, class permissions and `_User` privacy.
package enum ManagedClassReadRoutes {
    package static func register(in router: inout BmobRouter, path: String, className: String, runner: OperationRunner) {
        router.operation(.get, path, runner: runner) { request, _ in
            .find(try QueryRoutes.decode(className: className, request.http.queryItems))
        }
        router.operation(.get, path + "/:objectId", runner: runner) { request, _ in
            try ObjectRoutes.getOperation(request, className: className)
        }
    }
}
