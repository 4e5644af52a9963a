import BmobHTTP
import BmobStore
import BmobWire

/// REST roles: `POST /1/roles` (create), `GET /1/roles` (query), and `GET`, `PUT`, `DELETE`
/// `/1/roles/<id>`. Writes go through ``RoleService`` and its rules; reads are the ordinary object reads
/// of the class `_Role`.
package enum RoleRoutes {
    /// Adds the role routes to `router`.
    ///
    /// - Parameters:
    ///   - roles: creates, updates and deletes roles.
    ///   - objects: reads one role.
    ///   - queries: finds roles.
    package static func register(
        in router: inout BmobRouter, roles: RoleService, objects: ObjectService, queries: QueryService
    ) {
        router.app(.post, "/1/roles") { request, context in
            let role = try await roles.create(body: try request.jsonObjectBody(), context: context)
            var response = HTTPResponse.json(
                ["createdAt": .string(context.renderer.date(role.createdAt)), "objectId": .string(role.objectId)],
                status: .created)
            response.headers.add(name: "Location", value: location(request, objectId: role.objectId))
            return response
        }
        ManagedClassReadRoutes.register(in: &router, path: "/1/roles", className: RoleService.className, objects: objects, queries: queries)
        router.app(.put, "/1/roles/:objectId") { request, context in
            let role = try await roles.update(
                objectId: request.parameter("objectId"), body: try request.jsonObjectBody(), context: context)
            return .json(["updatedAt": .string(context.renderer.date(role.updatedAt))])
        }
        router.app(.delete, "/1/roles/:objectId") { request, context in
            try await roles.delete(objectId: request.parameter("objectId"), context: context)
            return .json(["msg": "ok"])
        }
    }

    /// The `Location` of a created role: on the configured public URL, else a relative path (never from the
    /// client's `Host` header).
    private static func location(_ request: BmobRequest, objectId: String) -> String {
        "\(request.server.configuration.publicURL ?? "")/1/roles/\(objectId)"
    }
}
