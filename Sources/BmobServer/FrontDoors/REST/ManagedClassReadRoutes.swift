import BmobHTTP
import BmobWire

/// Reads of a class with its own REST path (`/1/users`, `/1/roles`): `GET <path>` queries like
/// `/1/classes/<C>`, `GET <path>/<id>` gets one object with `include` and `keys`. Both go through the same
/// services, and so the same ACLs and class permissions, as `/1/classes`.
package enum ManagedClassReadRoutes {
    package static func register(
        in router: inout BmobRouter, path: String, className: String, objects: ObjectService, queries: QueryService
    ) {
        router.app(.get, path) { request, context in
            let query = try QueryRoutes.decode(className: className, request.http.queryItems)
            return .json(bytes: try await queries.find(query, context: context))
        }
        router.app(.get, path + "/:objectId") { request, context in
            let include = request.http.query("include").map(ObjectRoutes.commaList) ?? []
            let keys = request.http.query("keys").map(ObjectRoutes.commaList)
            return .json(
                try await objects.get(
                    className: className, objectId: request.parameter("objectId"), include: include, keys: keys,
                    context: context))
        }
    }
}
