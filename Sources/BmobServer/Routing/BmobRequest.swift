package import BmobHTTP

/// What a route handler receives: the HTTP request, the route's parameters, and the server's services.
package struct BmobRequest: Sendable {
    package var http: HTTPRequest
    package var parameters: RouteParameters
    package var server: ServerContext
    /// Logs a 5xx answer with the request's id (``RequestTrace``).
    package var trace: RequestTrace

    package init(http: HTTPRequest, parameters: RouteParameters, server: ServerContext, trace: RequestTrace) {
        self.http = http
        self.parameters = parameters
        self.server = server
        self.trace = trace
    }
}
