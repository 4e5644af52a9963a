import BmobTesting
import BmobWire
import Foundation

/// Speaks the native `/8/` protocol to a ``TestServer`` the way the vendor SDKs do: a `User-Agent` of the
/// current time, `Accept-Id` keyed with its bytes 1 to 16, bodies keyed with the app's secret key, and the
/// Objective-C SDK's `?id=` query on data routes.
struct NativeTestClient {
    let server: TestServer
    /// `<unix seconds>iOS18.0.0`, the current time unless a test sets another.
    var userAgent: String? = NativeTestClient.userAgent()
    var applicationId = TestServer.applicationId
    var secretKey = TestServer.secretKey
    /// Seconds between the `User-Agent` sent and the one `Accept-Id` is keyed with (the vendor SDK's skew).
    var acceptIdSkew: Int64 = 0

    init(_ server: TestServer) {
        self.server = server
    }

    static func userAgent(platform: String = "iOS18.0.0") -> String {
        "\(Int64(Date().timeIntervalSince1970))\(platform)"
    }

    var secretKeyBytes: [UInt8] { NativeEnvelope.key(secretKey) }

    /// The key of errors for callers whose app is unknown ("K3"): `User-Agent` bytes 1 to 16.
    var acceptIdKey: [UInt8] { NativeEnvelope.acceptIdKey(userAgent: userAgent ?? "") }

    /// The `Accept-Id` header for ``applicationId``.
    var acceptId: String {
        var agent = userAgent ?? ""
        if acceptIdSkew != 0, let shifted = NativeUserAgent(agent)?.shifted(by: acceptIdSkew) { agent = shifted.text }
        return String(
            decoding: NativeEnvelope.seal(Array(applicationId.utf8), key: NativeEnvelope.acceptIdKey(userAgent: agent)),
            as: UTF8.self)
    }

    /// Posts raw body bytes to `/8/<route>` with the protocol's headers (`Accept-Id` unless `acceptId` is
    /// `nil` for the route or overridden).
    func post(_ route: String, body: [UInt8], acceptId: String?? = .none, query: String? = nil) async throws
        -> RawHTTPResponse
    {
        var headers: [(String, String)] = [
            ("Content-Type", "text/html;charset=utf-8"), ("Accept-Encoding", "identity"),
        ]
        if let userAgent { headers.append(("User-Agent", userAgent)) }
        let header: String? = acceptId ?? (route == "secret" ? nil : self.acceptId)
        if let header { headers.append(("Accept-Id", header)) }
        let target =
            "/8/\(route)"
            + (query.map { "?\($0)" } ?? (route == "secret" || route == "init" ? "" : "?id=\(applicationId.suffix(6))"))
        return try await server.request("POST", target, headers: headers, body: body)
    }

    /// Seals `body` with the secret key, posts it and opens the answer with the secret key.
    func call(_ route: String, _ body: JSONValue = [:]) async throws -> NativeAnswer {
        var members = body.objectValue ?? [:]
        members["client"] =
            members["client"] ?? ["caller": "iOS", "version": "18.0", "ex": ["uuid": "u", "package": "com.example"]]
        members["v"] = members["v"] ?? "v2.4.1"
        members["appSign"] = members["appSign"] ?? "com.example/0"
        members["timestamp"] = members["timestamp"] ?? .int(Int64(Date().timeIntervalSince1970))
        let response = try await post(route, body: NativeEnvelope.seal(JSONValue.object(members), key: secretKeyBytes))
        return try NativeAnswer(response, key: secretKeyBytes)
    }

    /// `call` that must succeed: its `data`.
    func data(_ route: String, _ body: JSONValue = [:]) async throws -> JSONValue {
        let answer = try await call(route, body)
        guard answer.code == 200, answer.http.status == 200 else {
            throw TestFailure("/8/\(route) failed: \(answer.code) \(answer.message)")
        }
        return answer.data
    }

    /// The `/8/secret` handshake's raw response for `appKey`.
    func secret(appKey: JSONValue) async throws -> RawHTTPResponse {
        let body: JSONValue = [
            "appKey": appKey, "client": ["caller": "iOS"], "v": "v2.4.1", "appSign": "com.example/0",
        ]
        return try await post("secret", body: NativeEnvelope.seal(body, key: NativeEnvelope.tailKey(userAgent ?? "")))
    }
}
