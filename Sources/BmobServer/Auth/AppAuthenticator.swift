package import BmobHTTP
import BmobIO
import BmobWire

/// Checks Bmob's app headers: `X-Bmob-Application-Id` with `X-Bmob-REST-API-Key` or `X-Bmob-Master-Key`.
/// Header names match in any case (Python's urllib sends `X-Bmob-Rest-Api-Key`, PHP `X-bmob-Application-Id`).
package enum AppAuthenticator {
    /// - Throws: ``BmobAPIError/unauthorized`` for a missing or unknown app id or a wrong key.
    package static func authenticate(_ request: HTTPRequest, apps: AppDirectory) async throws(BmobAPIError) -> AppContext {
        guard let applicationId = request.headers["X-Bmob-Application-Id"], !applicationId.isEmpty,
            let runtime = await apps.runtime(id: applicationId)
        else {
            throw BmobAPIError.unauthorized
        }
        return try authenticate(request, runtime: runtime)
    }

    /// ``authenticate(_:apps:)`` without waiting, for an app whose runtime is open already (`nil` otherwise:
    /// then the `async` form opens it). Most requests take this path, which makes no `async` call.
    package static func authenticateOpened(_ request: HTTPRequest, apps: AppDirectory) throws(BmobAPIError) -> AppContext? {
        guard let applicationId = request.headers["X-Bmob-Application-Id"], !applicationId.isEmpty,
            let runtime = apps.openedRuntime(id: applicationId)
        else {
            return nil
        }
        return try authenticate(request, runtime: runtime)
    }

    private static func authenticate(_ request: HTTPRequest, runtime: AppRuntime) throws(BmobAPIError) -> AppContext {
        let headers = request.headers
        let app = runtime.app
        let sessionToken = headers["X-Bmob-Session-Token"].flatMap { $0.isEmpty ? nil : $0 }
        if let masterKey = headers["X-Bmob-Master-Key"] {
            guard AppKeys.constantTimeEquals(masterKey, app.masterKey) else { throw BmobAPIError.unauthorized }
            return AppContext(
                runtime: runtime, isMaster: true, sessionToken: sessionToken, clientAddress: request.remoteAddress)
        }
        guard let restKey = headers["X-Bmob-REST-API-Key"], AppKeys.constantTimeEquals(restKey, app.restKey) else {
            throw BmobAPIError.unauthorized
        }
        return AppContext(
            runtime: runtime, isMaster: false, sessionToken: sessionToken, clientAddress: request.remoteAddress)
    }
}
