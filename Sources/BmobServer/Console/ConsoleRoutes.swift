import BmobHTTP
import BmobIO
import BmobWire

/// The web console: its files at `/console` and `/console/<name>` (no keys needed; they hold no data), and the
/// one route the public REST API lacks for it, the admin's list of apps, `POST /1/console/apps`
/// `{"password": …}` → `{"results": [{"name", "applicationId", "restKey", "masterKey", "createdAt"}]}`.
///
/// Everything else the console does goes through the public REST API and the socket.io door, with the app's
/// id and master key. Its files are served with a strict Content-Security-Policy (scripts, styles and
/// connections from this origin only, no inline code, no framing), `nosniff` and `no-referrer`.
package enum ConsoleRoutes {
    /// The largest `POST /1/console/apps` body.
    static let signInBodyLimit = 4096

    /// Adds the routes; `admin` is the admin sign-in, `nil` when no console password is set.
    package static func register(in router: inout BmobRouter, admin: ConsoleAdmin?) {
        router.open(.get, "/console") { request in asset("index.html", request) }
        router.open(.get, "/console/:name") { request in asset(request.parameter("name"), request) }
        router.open(.post, "/1/console/apps", bodyLimit: signInBodyLimit) { request in
            try await apps(request, admin: admin)
        }
    }

    /// The headers every console file is served with.
    package static func securityHeaders(host: String?) -> [(String, String)] {
        // `'self'` covers same-origin WebSockets in current browsers; the explicit ws/wss sources are for older ones.
        var connect = "'self'"
        if let host, isSafeHost(host) { connect += " ws://\(host) wss://\(host)" }
        let policy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
            "connect-src \(connect)", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
        return [
            ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
    }

    /// A `Host` value that can go into the policy as it is: a name or address with an optional port.
    static func isSafeHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == 0x2E || $0 == 0x2D || $0 == 0x3A || $0 == 0x5B || $0 == 0x5D
            }
    }

    private static func asset(_ name: String, _ request: BmobRequest) -> HTTPResponse {
        guard let asset = ConsoleAsset.named(name) else {
            return BmobAPIError.body(
                status: .notFound, code: 404, message: "no console file named '\(name.prefix(64))'")
        }
        var headers = HTTPHeaders()
        for (field, value) in securityHeaders(host: request.http.headers["Host"]) {
            headers.add(name: field, value: value)
        }
        // Revalidated on every load (a new binary may ship new files), cheaply with the ETag.
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "ETag", value: asset.etag)
        if request.http.headers["If-None-Match"] == asset.etag {
            return HTTPResponse(status: HTTPStatus(code: 304), headers: headers)
        }
        headers.add(name: "Content-Type", value: asset.contentType)
        return HTTPResponse(status: .ok, headers: headers, body: asset.body)
    }

    private static func apps(_ request: BmobRequest, admin: ConsoleAdmin?) async throws -> HTTPResponse {
        guard let admin else {
            throw BmobAPIError(
                .notFound, "no console password is set on this server; sign in with an app's id and master key",
                status: .notFound)
        }
        let body = try request.jsonObjectBody()
        guard case .string(let password)? = body["password"], !password.isEmpty else {
            throw BmobAPIError(.missingParameter, "password is required")
        }
        let client = request.http.remoteAddress.map { ClientAddress($0).description } ?? "unknown"
        let now = request.server.clock.nowMilliseconds()
        if let wait = admin.limiter.wait(client: client, now: now) {
            throw BmobAPIError(
                .tooManyFailedAttempts,
                "too many failed console sign-ins; try again in \(RateLimit.describe(milliseconds: wait))")
        }
        guard admin.matches(password) else {
            admin.limiter.recordFailure(client: client, now: now)
            throw BmobAPIError(.unauthorized, "wrong console password", status: .unauthorized)
        }
        admin.limiter.recordSuccess(client: client, now: now)
        let apps = request.server.apps.all.map { app -> JSONValue in
            [
                "name": .string(app.name), "applicationId": .string(app.applicationId), "restKey": .string(app.restKey),
                "masterKey": .string(app.masterKey), "createdAt": .int(app.createdAt),
            ]
        }
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "no-store")
        return .json(["results": .array(apps)], headers: headers)
    }
}
