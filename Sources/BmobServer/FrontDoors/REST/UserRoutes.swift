import BmobHTTP
import BmobStore
import BmobWire

/// REST users: `/1/users` (signup, query, get, update, delete), `/1/users/<id>/sessions[/<sessionId>]` (list,
/// revoke), `/1/login` (GET and POST), `/1/logout`, `/1/checkSession/<id>` and `/1/updateUserPassword/<id>`
/// (PUT and POST). A body with `smsCode` is a phone login (signup too on `POST /1/users`), one with `authData`
/// a third-party login.
package enum UserRoutes {
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.post, "/1/users", runner: runner) { request, _ in
            var body = try request.jsonObjectBody()
            if let phone = try phoneLogin(body, allowSignUp: true) { return phone }
            if let authData = body.removeValue(forKey: "authData") {
                return .logInWithAuthData(authData: authData, fields: body)
            }
            return .signUp(fields: body)
        }
        router.operation(.get, "/1/login", runner: runner) { request, _ in
            .logIn(account: request.http.query("username") ?? "", password: request.http.query("password") ?? "")
        }
        router.operation(.post, "/1/login", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            if let phone = try phoneLogin(body, allowSignUp: false) { return phone }
            return .logIn(
                account: body["username"]?.stringValue ?? body["email"]?.stringValue
                    ?? body["mobilePhoneNumber"]?.stringValue ?? "",
                password: body["password"]?.stringValue ?? "")
        }
        router.operation(.post, "/1/logout", runner: runner) { request, _ in
            let body = request.http.body.isEmpty ? [:] : try request.jsonObjectBody()
            return .logOut(userId: body["objectId"]?.stringValue)
        }
        router.operation(.get, "/1/checkSession/:objectId", runner: runner) { request, _ in
            .checkSession(userId: request.parameter("objectId"))
        }
        for method in [HTTPMethod.put, .post] {
            router.operation(method, "/1/updateUserPassword/:objectId", runner: runner) { request, _ in
                let body = try request.jsonObjectBody()
                guard let oldPassword = body["oldPassword"]?.stringValue, let newPassword = body["newPassword"]?.stringValue
                else {
                    throw BmobAPIError(.missingParameter, "oldPassword and newPassword are required")
                }
                return .updatePassword(
                    userId: request.parameter("objectId"), oldPassword: oldPassword, newPassword: newPassword)
            }
        }
        router.operation(.get, "/1/users/:objectId/sessions", runner: runner) { request, _ in
            .listSessions(userId: request.parameter("objectId"))
        }
        router.operation(.delete, "/1/users/:objectId/sessions/:sessionId", runner: runner) { request, _ in
            .revokeSession(userId: request.parameter("objectId"), sessionId: request.parameter("sessionId"))
        }
        ManagedClassReadRoutes.register(in: &router, path: "/1/users", className: UserService.className, runner: runner)
        router.operation(.put, "/1/users/:objectId", runner: runner) { request, _ in
            .update(className: UserService.className, objectId: request.parameter("objectId"), body: try request.jsonObjectBody())
        }
        router.operation(.delete, "/1/users/:objectId", runner: runner) { request, _ in
            .delete(className: UserService.className, objectId: request.parameter("objectId"))
        }
    }

    /// A phone login when the body carries `smsCode` (answered with the whole user and status 200 for a login and
    /// a new user alike, §9); `nil` otherwise.
    ///
    /// - Throws: 111 when the number or the code is not a string.
    private static func phoneLogin(_ body: [String: JSONValue], allowSignUp: Bool) throws -> Operation? {
        guard let code = body["smsCode"], !code.isNull else { return nil }
        return .logInWithSmsCode(
            mobilePhoneNumber: try VerificationRoutes.string(body, "mobilePhoneNumber"),
            smsCode: try VerificationRoutes.string(body, "smsCode"), fields: body, allowSignUp: allowSignUp)
    }
}
