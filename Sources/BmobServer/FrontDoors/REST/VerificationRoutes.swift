import BmobIO
package import BmobHTTP
import BmobStore
import BmobWire

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
/// Phone login and signup (`POST /1/users`, `POST /1/login` with `smsCode`) go through
/// ``phoneLogin(_:_:users:allowSignUp:)``, which ``UserRoutes`` calls first.
package enum VerificationRoutes {
    /// Adds the routes.
    package static func register(
        in router: inout BmobRouter, sms: SmsCodeService, email: EmailLinkService, users: UserService
    ) {
        router.app(.post, "/1/requestSmsCode") { request, context in
            let body = try request.jsonObjectBody()
            let smsId = try await sms.requestCode(
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), template: try string(body, "template"),
                context: context)
            return .json(["smsId": .int(smsId)])
        }
        router.app(.post, "/1/verifySmsCode/:code") { request, context in
            let body = try request.jsonObjectBody()
            try await sms.verify(
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), smsCode: request.parameter("code"),
                context: context)
            return .json(["msg": "ok"])
        }
        router.app(.post, "/1/verifySmsCode") { request, context in
            let body = try request.jsonObjectBody()
            try await sms.verify(
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), smsCode: try string(body, "smsCode"),
                context: context)
            return .json(["msg": "ok"])
        }
        router.app(.get, "/1/querySms/:smsId") { request, context in
            guard let smsId = Int64(request.parameter("smsId")) else {
                throw BmobAPIError(.objectNotFound, "no SMS with smsId '\(request.parameter("smsId"))'")
            }
            return .json(try await sms.status(smsId: smsId, context: context))
        }
        router.app(.put, "/1/resetPasswordBySmsCode/:code") { request, context in
            let body = try request.jsonObjectBody()
            try await users.resetPassword(
                smsCode: request.parameter("code"), password: try string(body, "password"),
                mobilePhoneNumber: try string(body, "mobilePhoneNumber"), client: request.http.remoteAddress?.host,
                context: context)
            return .json(["msg": "ok"])
        }
        router.app(.post, "/1/requestPasswordReset") { request, context in
            let body = try request.jsonObjectBody()
            try await email.requestPasswordReset(
                email: try string(body, "email"), publicURL: request.server.publicURL, context: context)
            return .json(["msg": "ok"])
        }
        router.app(.post, "/1/requestEmailVerify") { request, context in
            let body = try request.jsonObjectBody()
            try await email.requestEmailVerification(
                email: try string(body, "email"), publicURL: request.server.publicURL, context: context)
            return .json(["msg": "ok"])
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

    /// The answer to `POST /1/users` or `POST /1/login` when the body carries `smsCode`: the full user with its
    /// `sessionToken`, status 200 for a login and for a new user alike (§9). `nil` when there is no `smsCode`,
    /// so the caller goes on with its username-and-password handling.
    ///
    /// - Throws: as ``UserService/logIn(mobilePhoneNumber:smsCode:fields:allowSignUp:context:)``.
    package static func phoneLogin(
        _ request: BmobRequest, _ context: AppContext, users: UserService, allowSignUp: Bool
    ) async throws -> HTTPResponse? {
        let body = try request.jsonObjectBody()
        guard let code = body["smsCode"], !code.isNull else { return nil }
        let login = try await users.logIn(
            mobilePhoneNumber: try string(body, "mobilePhoneNumber"), smsCode: try string(body, "smsCode"),
            fields: body, allowSignUp: allowSignUp, context: context)
        return .json(UserRoutes.rendered(login.login, context))
    }

    /// A string member of a body; `nil` when missing or `null`.
    ///
    /// - Throws: 111 for another type.
    private static func string(_ body: [String: JSONValue], _ name: String) throws -> String? {
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
