package import BmobHTTP
package import BmobWire

/// The server's ``HTTPResponder``: routes requests and answers every error in Bmob's JSON shape.
package struct BmobResponder: HTTPResponder {
    private let router: Router
    private let handlers: [BmobRouter.Handler]
    private let server: ServerContext
    /// Whether any route sets its own body limit or streams its body; when none does, a request's head needs no
    /// routing of its own (the request is routed once, in ``respond(to:)``).
    private let hasRouteBodyPolicies: Bool

    package init(router: BmobRouter, server: ServerContext) {
        self.router = router.router
        self.handlers = router.handlers
        self.server = server
        self.hasRouteBodyPolicies =
            router.router.hasStreamedBodies || router.router.routes.contains { $0.bodyLimit != nil }
    }

    package func bodyPolicy(for head: HTTPRequestHead) -> HTTPRequestBodyPolicy {
        guard hasRouteBodyPolicies else { return .standard }
        if case .found(let route, _) = router.match(head.method, path: head.path) {
            return router.bodyPolicy(route)
        }
        return .standard
    }

    /// Runs the route's handler with a ``RequestTrace``. Every 5xx is logged once with the request id (here, or
    /// where it was answered: a native envelope, a batch element) and the response then carries `X-Request-Id`.
    package func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        switch router.match(request.method, path: request.path) {
        case .found(let route, let parameters):
            let trace = RequestTrace(request, pattern: route.pattern, server: server)
            var response: HTTPResponse
            do {
                response = try await handlers[route.index](
                    BmobRequest(http: request, parameters: parameters, server: server, trace: trace))
            } catch let error as any HTTPResponseError where !(error is BmobAPIError) {
                response = error.response
            } catch {
                response = trace.answer(for: error).response
            }
            if response.status.code >= 500, !trace.hasReported {
                // A handler that answered a 5xx itself: log it all the same.
                var failure = BmobAPIError(.internalError, "internal server error", status: response.status)
                failure.cause = "the handler answered \(response.status.code)"
                _ = trace.report(failure)
            }
            if trace.hasReported {
                response.headers.add(name: "X-Request-Id", value: trace.requestId)
            }
            return response
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
