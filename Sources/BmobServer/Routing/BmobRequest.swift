package import BmobHTTP

/// What a route handler receives: the HTTP request, the route's parameters, and the server's services.
package struct BmobRequest: Sendable {
    package var http: HTTPRequest
    package var parameters: RouteParameters
    package var server: ServerContext

    package init(http: HTTPRequest, parameters: RouteParameters, server: ServerContext) {
        self.http = http
        self.parameters = parameters
        self.server = server
    }
}
