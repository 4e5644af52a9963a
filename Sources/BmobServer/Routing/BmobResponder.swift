package import BmobHTTP
import BmobIO
package import BmobWire

/// The server's ``HTTPResponder``: routes requests and answers every error in Bmob's JSON shape. Every answer
/// carries `X-Request-Id`, is counted in the metrics (route, status, duration) and written to the access log.
package struct BmobResponder: HTTPResponder {
    private let router: Router
    private let handlers: [BmobRouter.Handler]
    private let server: ServerContext
    private let metrics: RequestMetrics
    /// Route patterns by index, and the WebSocket kind of each route (for the open-connections gauge).
    private let patterns: [String]
    private let webSocketKinds: [WebSocketKind]
    /// Whether any route sets its own body limit or streams its body; when none does, a request's head needs no
    /// routing of its own (the request is routed once, in ``respond(to:)``).
    private let hasRouteBodyPolicies: Bool

    package init(router: BmobRouter, server: ServerContext) {
        self.router = router.router
        self.handlers = router.handlers
        self.server = server
        self.hasRouteBodyPolicies =
            router.router.hasStreamedBodies || router.router.routes.contains { $0.bodyLimit != nil }
        let routes = router.router.routes
        self.patterns = routes.map(\.pattern)
        self.webSocketKinds = routes.map { WebSocketKind(routePattern: $0.pattern) }
        self.metrics = RequestMetrics(routes: routes.map { "\($0.method) \($0.pattern)" })
        server.metrics.requests = metrics
    }

    package func bodyPolicy(for head: HTTPRequestHead) -> HTTPRequestBodyPolicy {
        guard hasRouteBodyPolicies else { return .standard }
        if case .found(let route, _) = router.match(head.method, path: head.path) {
            return router.bodyPolicy(route)
        }
        return .standard
    }

    /// Runs the route's handler with a ``RequestTrace``. Every 5xx is logged once with the request id (here, or
    /// where it was answered: a native envelope, a batch element).
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
            if let upgrade = response.upgrade {
                let gauge = server.metrics.webSockets[webSocketKinds[route.index]]!
                response.upgrade = WebSocketUpgrade(configuration: upgrade.configuration) {
                    CountedWebSocketHandler(upgrade.makeHandler(), gauge: gauge)
                }
            }
            response.headers.add(name: "X-Request-Id", value: trace.requestId)
            finished(
                request, response, slot: route.index, route: route.pattern, requestId: trace.requestId, app: trace.app,
                caller: trace.caller)
            return response
        case .methodNotAllowed(let methods):
            var response = BmobAPIError.body(status: .methodNotAllowed, code: 405, message: "method \(request.method) not allowed on \(request.path)")
            response.headers.add(name: "Allow", value: methods.map(\.rawValue).joined(separator: ", "))
            return unmatched(request, response)
        case .notFound:
            return unmatched(request, BmobAPIError.body(status: .notFound, code: 404, message: "no route for \(request.path)"))
        }
    }

    /// An answer for a request no route took: with its id, counted and logged under the route `-`.
    private func unmatched(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        let requestId = RequestTrace.requestId(of: request, server: server)
        response.headers.add(name: "X-Request-Id", value: requestId)
        finished(request, response, slot: metrics.unmatchedSlot, route: "-", requestId: requestId, app: nil, caller: "none")
        return response
    }

    /// Counts the answer and writes its access-log line.
    private func finished(
        _ request: HTTPRequest, _ response: HTTPResponse, slot: Int, route: String, requestId: String, app: String?,
        caller: String
    ) {
        let elapsed: UInt64? = request.receivedAt == 0 ? nil : Posix.monotonicNanoseconds() &- request.receivedAt
        metrics.record(slot: slot, status: Int(response.status.code), nanoseconds: elapsed)
        guard let accessLog = server.accessLog else { return }
        accessLog.record(
            AccessLogEntry(
                time: server.clock.nowMilliseconds(), requestId: requestId, applicationId: app,
                method: request.method.rawValue, route: route, status: Int(response.status.code),
                bytes: response.bodyStream.map { $0.length ?? 0 } ?? response.body.count, nanoseconds: elapsed ?? 0,
                caller: caller))
    }

    /// The answer to a request the HTTP layer refused itself (malformed, too large, timed out, overloaded): counted
    /// and logged under the route `-`, with a fresh request id.
    package func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        var response = BmobAPIError.body(status: status, code: status.code, message: message)
        let requestId = server.requestIds.next()
        response.headers.add(name: "X-Request-Id", value: requestId)
        metrics.record(slot: metrics.rejectedSlot, status: Int(status.code), nanoseconds: nil)
        server.accessLog?.record(
            AccessLogEntry(
                time: server.clock.nowMilliseconds(), requestId: requestId, applicationId: nil, method: "-", route: "-",
                status: Int(status.code), bytes: response.body.count, nanoseconds: 0, caller: "none"))
        return response
    }
}
