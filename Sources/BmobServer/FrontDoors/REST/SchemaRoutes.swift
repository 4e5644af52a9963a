import BmobHTTP
import BmobWire

/// REST `/1/schemas[/<C>]`: read, create and change class schemas and indexes. Master Key only
/// (``SchemaService`` checks it, for every door).
package enum SchemaRoutes {
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.get, "/1/schemas", runner: runner) { _, _ in .schemas(className: nil) }
        router.operation(.get, "/1/schemas/:className", runner: runner) { request, _ in
            .schemas(className: request.parameter("className"))
        }
        router.operation(.post, "/1/schemas/:className", runner: runner) { request, _ in
            .saveSchema(className: request.parameter("className"), body: try request.jsonObjectBody(), create: true)
        }
        router.operation(.put, "/1/schemas/:className", runner: runner) { request, _ in
            .saveSchema(className: request.parameter("className"), body: try request.jsonObjectBody(), create: false)
        }
        router.operation(.delete, "/1/schemas/:className", runner: runner) { request, _ in
            .deleteSchema(className: request.parameter("className"))
        }
    }
}
