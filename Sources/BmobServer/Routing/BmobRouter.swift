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
    ///
    /// - Parameters:
    ///   - bodyLimit: the largest body the route accepts (`nil`: the server's default).
    ///   - bodyStream: whether the handler receives the body as it arrives, in `request.http.bodyStream`, with
    ///     backpressure, instead of whole in `request.http.body` (uploads of any size in bounded memory).
    package mutating func open(
        _ method: HTTPMethod,
        _ pattern: String,
        bodyLimit: Int? = nil,
        bodyStream: Bool = false,
        _ handler: @escaping Handler
    ) {
        router.add(method, pattern, bodyLimit: bodyLimit, streamsBody: bodyStream)
        handlers.append(handler)
    }

    /// A route that runs only for a request carrying a known app id and its REST or Master key.
    ///
    /// - Parameters:
    ///   - bodyLimit: the largest body the route accepts (`nil`: the server's default).
    ///   - bodyStream: whether the handler receives the body as it arrives (see ``open(_:_:bodyLimit:bodyStream:_:)``).
    package mutating func app(
        _ method: HTTPMethod,
        _ pattern: String,
        bodyLimit: Int? = nil,
        bodyStream: Bool = false,
        _ handler: @escaping @Sendable (BmobRequest, AppContext) async throws -> HTTPResponse
    ) {
        open(method, pattern, bodyLimit: bodyLimit, bodyStream: bodyStream) { request in
            let apps = request.server.apps
            var context: AppContext
            if let opened = try AppAuthenticator.authenticateOpened(request.http, apps: apps) {
                context = opened
            } else {
                context = try await AppAuthenticator.authenticate(request.http, apps: apps)
            }
            context.trace = request.trace
            request.trace.noteApp(
                context.app.applicationId,
                callerKind: context.isMaster ? "master" : context.sessionToken == nil ? "key" : "session")
            return try await handler(request, context)
        }
    }
}
