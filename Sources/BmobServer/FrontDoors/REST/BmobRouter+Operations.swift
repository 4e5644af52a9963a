import BmobHTTP
package import BmobWire

extension BmobRouter {
    /// A REST route that decodes its request into an ``Operation``, runs it and answers with
    /// ``RESTResultEncoder``: the shape of every REST route that acts on an app.
    package mutating func operation(
        _ method: HTTPMethod,
        _ pattern: String,
        runner: OperationRunner,
        _ decode: @escaping @Sendable (BmobRequest, AppContext) throws -> Operation
    ) {
        app(method, pattern) { request, context in
            let result = try await runner.run(try decode(request, context), context: context)
            return RESTResultEncoder.response(result, context: context, server: request.server)
        }
    }
}
