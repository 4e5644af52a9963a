package import BmobHTTP
package import BmobWire

/// The server's ``HTTPResponder``: routes requests and answers every error in Bmob's JSON shape.
package struct BmobResponder: HTTPResponder {
    private let router: Router
    private let handlers: [BmobRouter.Handler]
    private let server: ServerContext
    /// Whether any route sets its own body limit; when none does, a request's head needs no routing of its own
    /// (the request is routed once, in ``respond(to:)``).
    private let hasRouteBodyLimits: Bool

    package init(router: BmobRouter, server: ServerContext) {
        self.router = router.router
        self.handlers = router.handlers
        self.server = server
        self.hasRouteBodyLimits = router.router.routes.contains { $0.bodyLimit != nil }
    }

    package func bodyLimit(for head: HTTPRequestHead) -> Int? {
        guard hasRouteBodyLimits else { return nil }
        if case .found(let route, _) = router.match(head.method, path: head.path) {
            return route.bodyLimit
        }
        return nil
    }

    package func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        switch router.match(request.method, path: request.path) {
        case .found(let route, let parameters):
            do {
                return try await handlers[route.index](BmobRequest(http: request, parameters: parameters, server: server))
            } catch let error as BmobAPIError {
                return error.response
            } catch let error as any HTTPResponseError {
                return error.response
            } catch {
                server.logger.error("\(request.method) \(request.path) failed: \(error)")
                return BmobAPIError.body(status: .internalServerError, code: BmobErrorCode.internalError.rawValue, message: "internal server error")
            }
        case .methodNotAllowed(let methods):
            var response = BmobAPIError.body(status: .methodNotAllowed, code: 405, message: "method \(request.method) not allowed on \(request.path)")
            response.headers.add(name: "Allow", value: methods.map(\.rawValue).joined(separator: ", "))
            return response
        case .notFound:
            return BmobAPIError.body(status: .notFound, code: 404, message: "no route for \(request.path)")
        }
    }

    package func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        BmobAPIError.body(status: status, code: status.code, message: message)
    }
}
