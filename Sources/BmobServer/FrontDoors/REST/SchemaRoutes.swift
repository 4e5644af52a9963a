import BmobHTTP
import BmobWire

/// REST `/1/schemas[/<C>]`: read, create and change class schemas and indexes. Master Key only
/// (``SchemaService`` checks it, for every door).
package enum SchemaRoutes {
    package static func register(in router: inout BmobRouter, schemas: SchemaService) {
        router.app(.get, "/1/schemas") { _, context in
            .json(try await schemas.all(context: context))
        }
        router.app(.get, "/1/schemas/:className") { request, context in
            .json(try await schemas.get(className: request.parameter("className"), context: context))
        }
        router.app(.post, "/1/schemas/:className") { request, context in
            .json(try await schemas.update(className: request.parameter("className"), body: try request.jsonObjectBody(), create: true, context: context))
        }
        router.app(.put, "/1/schemas/:className") { request, context in
            .json(try await schemas.update(className: request.parameter("className"), body: try request.jsonObjectBody(), create: false, context: context))
        }
        router.app(.delete, "/1/schemas/:className") { request, context in
            try await schemas.delete(className: request.parameter("className"), context: context)
            return .json(["msg": "ok"])
        }
    }
}
