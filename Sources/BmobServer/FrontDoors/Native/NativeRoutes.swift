import BmobIO
import BmobHTTP
import BmobStore
import BmobWire

/// The encrypted native protocol, `POST /8/<route>`, spoken by the Bmob iOS, Android and Swift SDKs.
///
/// - `/8/secret`: the body is keyed with the `User-Agent`'s last 16 bytes and names the app (`appKey`); the
///   answer carries the app's secret key, keyed with the last 16 bytes of the `Response-Id` header sent with it.
/// - every other route: the `Accept-Id` header names the app (keyed with `User-Agent` bytes 1 to 16, ±1 s), the
///   body and the answer are keyed with the app's secret key. The body decodes into a ``NativeCall``
///   (``NativeRequest``), which is an ``Operation`` the ``OperationRunner`` runs as for REST; the answer is
///   encoded by ``NativeResultEncoder``.
///
/// Every answer is HTTP 200 with the envelope `{"result":{"code","message"},"data"}`, errors included: keyed
/// with the secret key once the app is known, else with the `Accept-Id` key of the `User-Agent` (what the
/// vendor Swift SDK tries). A `?id=` query (the Objective-C SDK's last 6 characters of the app id) is ignored.
package enum NativeRoutes {
    /// Adds `POST /8/secret` and `POST /8/:route` (open routes: the app comes from the body or `Accept-Id`).
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.open(.post, "/8/secret") { request in
            await secret(request)
        }
        router.open(.post, "/8/:route") { request in
            await call(request, route: request.parameter("route"), runner: runner)
        }
        // A small file travels whole in the envelope: its bytes in base64, encrypted, in base64 again.
        let files = runner.files.settings.maximumSmallFileBytes
        router.open(.post, "/8/files", bodyLimit: files / 3 * 4 / 3 * 4 + 64 * 1024) { request in
            await call(request, route: "files", runner: runner)
        }
    }

    /// `/8/secret`: the handshake that hands a client its app's secret key.
    private static func secret(_ request: BmobRequest) async -> HTTPResponse {
        let header = request.http.headers["User-Agent"]
        guard let agent = NativeUserAgent(header) else {
            return userAgentMissing(header)
        }
        let applicationId: String
        do {
            applicationId = try agent.secretApplicationId(body: request.http.body)
        } catch {
            return sealed(error: BmobAPIError(request: error), key: agent.acceptIdKey)
        }
        guard let runtime = await request.server.apps.runtime(id: applicationId) else {
            return sealed(error: unknownApp, key: agent.acceptIdKey)
        }
        let responseId = responseId(seconds: request.server.clock.nowSeconds)
        let answer = NativeEnvelope.response(
            code: 200, message: "ok", data: ["secretKey": .string(runtime.app.secretKey)])
        var response = sealed(plaintext: answer.jsonBytes, key: NativeEnvelope.tailKey(responseId))
        response.headers.add(name: "Response-Id", value: responseId)
        return response
    }

    /// Every route but `secret`: find the app from `Accept-Id`, open the body with its secret key, run the call.
    private static func call(_ request: BmobRequest, route: String, runner: OperationRunner) async -> HTTPResponse {
        let header = request.http.headers["User-Agent"]
        guard let agent = NativeUserAgent(header) else {
            return userAgentMissing(header)
        }
        let runtime: AppRuntime
        do {
            runtime = try await app(request, agent: agent)
        } catch {
            return sealed(error: error, key: agent.acceptIdKey)
        }
        let key = NativeEnvelope.key(runtime.app.secretKey)
        do {
            let native = try NativeRequest.open(route: route, body: request.http.body, key: key)
            var context = AppContext(
                runtime: runtime, isMaster: false, sessionToken: native.sessionToken, frontDoor: .native,
                clientAddress: request.http.remoteAddress)
            context.trace = request.trace
            request.trace.noteApp(
                runtime.app.applicationId, callerKind: native.sessionToken == nil ? "key" : "session")
            guard let operation = try native.call.operation() else {
                return sealed(plaintext: NativeEnvelope.successPlaintext(data: initialize(request.server, files: runner.files).jsonBytes), key: key)
            }
            let result = try await runner.run(operation, context: context)
            let data = NativeResultEncoder.data(result, context: context)
            let extra = NativeResultEncoder.extraMembers(result, context: context)
            return sealed(plaintext: NativeEnvelope.successPlaintext(data: data, extraMembers: extra), key: key)
        } catch let error as BmobRequestError {
            return sealed(error: BmobAPIError(request: error), key: key)
        } catch {
            // A 5xx inside the envelope (HTTP 200) is logged with the request id, which its message carries.
            return sealed(error: request.trace.answer(for: error, route: "POST /8/\(loggableRoute(route))"), key: key)
        }
    }

    /// `init`: the hosts a native client uses, all this server (files at the file base URL), and its clock.
    /// `isUp: false` tells clients that files are not uploaded to Upyun.
    private static func initialize(_ server: ServerContext, files: FileService) -> JSONValue {
        let url = JSONValue.string(server.publicURL)
        return [
            "api": url, "file": .string(files.settings.baseURL ?? server.publicURL), "io": url, "push": url, "other": url,
            "isUp": false, "upyunVer": 0, "timestamp": .int(server.clock.nowSeconds),
        ]
    }

    /// The route name for the log: known names are plain words; anything else is cut and masked, since it comes
    /// from the URL.
    private static func loggableRoute(_ route: String) -> String {
        let allowed =
            route.utf8.count <= 40
            && route.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
        return allowed ? route : ":route"
    }

    /// The app named by `Accept-Id`, trying the candidates the header decrypts to in turn.
    ///
    /// - Throws: ``BmobAPIError`` 401 for a missing or unreadable header, or one naming no app here.
    private static func app(_ request: BmobRequest, agent: NativeUserAgent) async throws(BmobAPIError) -> AppRuntime {
        guard let acceptId = request.http.headers["Accept-Id"], !acceptId.isEmpty else {
            throw BmobAPIError(.unauthorized, "the Accept-Id header is required", status: .unauthorized)
        }
        let candidates: [String]
        do {
            candidates = try agent.applicationIds(acceptId: acceptId.utf8)
        } catch {
            throw BmobAPIError(request: error)
        }
        for applicationId in candidates {
            if let runtime = await request.server.apps.runtime(id: applicationId) { return runtime }
        }
        throw unknownApp
    }

    /// The error for an `Accept-Id` or `appKey` that names no app here.
    private static let unknownApp = BmobAPIError(
        .unauthorized, "unknown application: check the Application ID and the Accept-Id header", status: .unauthorized)

    /// A missing or short `User-Agent`: no key can be derived from it, so the error is keyed with what there is
    /// (zero-padded), which a client that sent one can still open.
    private static func userAgentMissing(_ header: String?) -> HTTPResponse {
        let error = BmobAPIError(
            .badRequest,
            "User-Agent must be at least \(NativeUserAgent.minimumLength) bytes: <unix seconds><platform><version>")
        return sealed(error: error, key: NativeEnvelope.acceptIdKey(userAgent: header ?? ""))
    }

    /// `Response-Id` of the handshake: 10 digits of unix seconds and the server version (more than 16
    /// characters, since its last 16 key the answer).
    package static func responseId(seconds: Int64) -> String {
        let digits = String(max(0, seconds))
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + Server.version
    }

    private static func sealed(error: BmobAPIError, key: [UInt8]) -> HTTPResponse {
        sealed(
            plaintext: NativeEnvelope.response(code: error.code.rawValue, message: error.message, data: [:]).jsonBytes,
            key: key)
    }

    private static func sealed(plaintext: [UInt8], key: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: NativeEnvelope.seal(plaintext, key: key))
    }
}
