import BmobHTTP
import BmobWire

/// REST `/1/schemas[/<C>]`: read, create and change class schemas and indexes. Master Key only.
package enum SchemaRoutes {
    package static func register(in router: inout BmobRouter, schemas: SchemaService) {
        router.app(.get, "/1/schemas") { _, context in
            try requireMaster(context)
            return .json(try await schemas.all(context: context))
        }
        router.app(.get, "/1/schemas/:className") { request, context in
            try requireMaster(context)
            return .json(try await schemas.get(className: request.parameter("className"), context: context))
        }
        router.app(.post, "/1/schemas/:className") { request, context in
            try requireMaster(context)
            return .json(try await schemas.update(className: request.parameter("className"), body: try request.jsonObjectBody(), create: true, context: context))
        }
        router.app(.put, "/1/schemas/:className") { request, context in
            try requireMaster(context)
            return .json(try await schemas.update(className: request.parameter("className"), body: try request.jsonObjectBody(), create: false, context: context))
        }
        router.app(.delete, "/1/schemas/:className") { request, context in
            try requireMaster(context)
            try await schemas.delete(className: request.parameter("className"), context: context)
            return .json(["msg": "ok"])
        }
    }

    private static func requireMaster(_ context: AppContext) throws(BmobAPIError) {
        guard context.isMaster else { throw BmobAPIError.unauthorized }
    }
}
