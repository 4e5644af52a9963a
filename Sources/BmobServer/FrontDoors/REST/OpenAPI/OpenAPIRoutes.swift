import BmobHTTP
import BmobWire

/// `GET /1/openapi.json`: the REST API's OpenAPI document (``OpenAPIDocument``), public like `/1/serverInfo`'s
/// public part, built once when the server starts.
package enum OpenAPIRoutes {
    /// Where the document is served.
    static let path = "/1/openapi.json"
    /// The route's key in ``RESTAPI/operations``.
    static let route = "GET " + path

    /// Adds the route, after every other route (the document describes the router as it is then), and returns
    /// the document it serves.
    package static func register(in router: inout BmobRouter) -> OpenAPIDocument {
        var routes: [(method: HTTPMethod, pattern: String)] = router.router.routes.map { ($0.method, $0.pattern) }
        routes.append((.get, path))
        let document = OpenAPIDocument(routes: routes)
        let response = HTTPResponse.json(bytes: document.bytes)
        router.open(.get, path) { _ in response }
        return document
    }
}
