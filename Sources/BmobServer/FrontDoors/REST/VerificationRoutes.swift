import BmobIO
import BmobHTTP
import BmobStore
package import BmobWire

/// REST routes of SMS codes and emailed links.
///
/// With app headers:
/// - `POST /1/requestSmsCode` `{"mobilePhoneNumber","template"?}` → `{"smsId":n}`
/// - `POST /1/verifySmsCode/<code>` `{"mobilePhoneNumber"}` and `POST /1/verifySmsCode`
///   `{"mobilePhoneNumber","smsCode"}` → `{"msg":"ok"}`
/// - `GET /1/querySms/<smsId>` → `{"sms_state":"SENDING"|"SUCCESS"|"FAIL","verify_state":bool}`
/// - `PUT /1/resetPasswordBySmsCode/<code>` `{"password","mobilePhoneNumber"?}` → `{"msg":"ok"}`
/// - `POST /1/requestPasswordReset` `{"email"}` and `POST /1/requestEmailVerify` `{"email"}` → `{"msg":"ok"}`, for
///   an address no user has too (nothing is mailed; an app with `security.successOnUnknownEmail: false` gets 205)
///
/// Code and link requests are limited per number or address, per client address and per app (see
/// ``SmsCodes`` and ``EmailLinkService``).
///
/// Without headers (a browser follows a mailed link; the token names the app):
/// - `GET /1/resetPassword/<token>` → an HTML form; `POST` of `password` (form or JSON) → a page or `{"msg":"ok"}`
/// - `GET /1/verifyEmail/<token>` → a page (or `{"msg":"ok"}` for a client that does not ask for HTML)
///
/// Phone login and signup (`POST /1/users`, `POST /1/login` with `smsCode`) are ``UserRoutes``'.
package enum VerificationRoutes {
    /// Adds the routes.
    package static func register(in router: inout BmobRouter, runner: OperationRunner, email: EmailLinkService) {
        router.operation(.post, "/1/requestSmsCode", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            return .requestSmsCode(
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), template: try string(body, "template"))
        }
        router.operation(.post, "/1/verifySmsCode/:code", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            return .verifySmsCode(mobilePhoneNumber: try string(body, "mobilePhoneNumber"), smsCode: request.parameter("code"))
        }
        router.operation(.post, "/1/verifySmsCode", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            return .verifySmsCode(
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), smsCode: try string(body, "smsCode"))
        }
        router.operation(.get, "/1/querySms/:smsId", runner: runner) { request, _ in
            guard let smsId = Int64(request.parameter("smsId")) else {
                throw BmobAPIError(.objectNotFound, "no SMS with smsId '\(request.parameter("smsId"))'")
            }
            return .querySms(smsId: smsId)
        }
        router.operation(.put, "/1/resetPasswordBySmsCode/:code", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            return .resetPasswordBySmsCode(
                smsCode: request.parameter("code"), password: try string(body, "password"),
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"))
        }
        router.operation(.post, "/1/requestPasswordReset", runner: runner) { request, _ in
            .requestPasswordReset(email: try string(try request.jsonObjectBody(), "email"))
        }
        router.operation(.post, "/1/requestEmailVerify", runner: runner) { request, _ in
            .requestEmailVerify(email: try string(try request.jsonObjectBody(), "email"))
        }
        router.open(.get, "/1/resetPassword/:token") { request in
            let html = wantsHTML(request)
            return try await answering(html: html) {
                let (context, secret) = try await linkContext(request)
                let token = try await email.validToken(secret: secret, purpose: .passwordReset, context: context)
                return VerificationPages.resetForm(appName: context.app.name, email: token.email)
            }
        }
        router.open(.post, "/1/resetPassword/:token") { request in
            let form = request.http.headers["Content-Type"]?.lowercased().contains("x-www-form-urlencoded") ?? false
            return try await answering(html: form) {
                let (context, secret) = try await linkContext(request)
                let password: String?
                if form {
                    let fields = QueryString.parse(String(decoding: request.http.body, as: UTF8.self))
                    password = fields.first { $0.name == "password" }?.value
                    let confirm = fields.first { $0.name == "confirm" }?.value
                    if let confirm, confirm != password {
                        throw BmobAPIError(.validationFailed, "the two passwords differ; go back and type them again")
                    }
                } else {
                    password = try string(try request.jsonObjectBody(), "password")
                }
                try await email.resetPassword(secret: secret, password: password ?? "", context: context)
                return form
                    ? VerificationPages.message(
                        title: "Password changed", "Your password was changed. You can now log in with it.")
                    : .json(["msg": "ok"])
            }
        }
        router.open(.get, "/1/verifyEmail/:token") { request in
            let html = wantsHTML(request)
            return try await answering(html: html) {
                let (context, secret) = try await linkContext(request)
                let address = try await email.verifyEmail(secret: secret, context: context)
                return html
                    ? VerificationPages.message(
                        title: "Email address verified", "Thank you: \(address) is verified for \(context.app.name).")
                    : .json(["msg": "ok"])
            }
        }
    }

    /// A string member of a body; `nil` when missing or `null`.
    ///
    /// - Throws: 111 for another type.
    package static func string(_ body: [String: JSONValue], _ name: String) throws -> String? {
        switch body[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw BmobAPIError(.incorrectType, "invalid type for key '\(name)', expected 'String'")
        }
    }

    /// The app a link's token names, as a caller without a session, and the token's secret.
    ///
    /// - Throws: 207 for a token that is malformed or names no app here.
    private static func linkContext(_ request: BmobRequest) async throws -> (AppContext, String) {
        guard let (applicationId, secret) = EmailLinkService.parseToken(request.parameter("token")),
            let runtime = await request.server.apps.runtime(id: applicationId)
        else { throw EmailLinkService.invalidLink }
        return (AppContext(runtime: runtime, isMaster: false, sessionToken: nil, frontDoor: .rest), secret)
    }

    /// Whether the client asked for HTML (a browser following a link).
    private static func wantsHTML(_ request: BmobRequest) -> Bool {
        request.http.headers["Accept"]?.lowercased().contains("text/html") ?? false
    }

    /// Runs `body`; a Bmob error becomes an HTML page for a browser, Bmob's JSON error otherwise.
    private static func answering(html: Bool, _ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            return try await body()
        } catch let error as BmobAPIError where html {
            return VerificationPages.error(error)
        }
    }
}
