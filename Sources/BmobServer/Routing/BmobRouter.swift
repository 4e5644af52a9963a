package import BmobHTTP
package import BmobWire

/// The server's routes, with Bmob's rules: routes either need no app (`/health`) or need valid app headers,
/// in which case the handler gets an ``AppContext``.
package struct BmobRouter: Sendable {
    package typealias Handler = @Sendable (BmobRequest) async throws -> HTTPResponse

    package private(set) var router = Router()
    /// Handlers by route index.
    package private(set) var handlers: [Handler] = []

    package init() {}

    /// A route that needs no app headers.
    package mutating func open(
        _ method: HTTPMethod,
        _ pattern: String,
        bodyLimit: Int? = nil,
        _ handler: @escaping Handler
    ) {
        router.add(method, pattern, bodyLimit: bodyLimit)
        handlers.append(handler)
    }

    /// A route that runs only for a request carrying a known app id and its REST or Master key.
    package mutating func app(
        _ method: HTTPMethod,
        _ pattern: String,
        bodyLimit: Int? = nil,
        _ handler: @escaping @Sendable (BmobRequest, AppContext) async throws -> HTTPResponse
    ) {
        open(method, pattern, bodyLimit: bodyLimit) { request in
            let apps = request.server.apps
            var context: AppContext
            if let opened = try AppAuthenticator.authenticateOpened(request.http, apps: apps) {
                context = opened
            } else {
                context = try await AppAuthenticator.authenticate(request.http, apps: apps)
            }
            context.trace = request.trace
            return try await handler(request, context)
        }
    }
}
