import BmobHTTP
import BmobStore
package import BmobWire

/// REST users: `/1/users` (signup, query, get, update, delete), `/1/users/<id>/sessions[/<sessionId>]` (list,
/// revoke), `/1/login` (GET and POST), `/1/logout`, `/1/checkSession/<id>` and `/1/updateUserPassword/<id>`
/// (PUT and POST).
package enum UserRoutes {
    package static func register(in router: inout BmobRouter, users: UserService, objects: ObjectService, queries: QueryService) {
        router.app(.post, "/1/users") { request, context in
            if let phone = try await VerificationRoutes.phoneLogin(request, context, users: users, allowSignUp: true) {
                return phone
            }
            var body = try request.jsonObjectBody()
            if let authData = body.removeValue(forKey: "authData") {
                let (login, created) = try await users.logIn(authData: authData, fields: body, context: context)
                return .json(rendered(login, context), status: created ? .created : .ok)
            }
            let login = try await users.signUp(body: body, context: context)
            var response = HTTPResponse.json(
                [
                    "createdAt": .string(context.renderer.date(login.user.createdAt)),
                    "objectId": .string(login.user.objectId), "sessionToken": .string(login.sessionToken),
                ],
                status: .created)
            response.headers.add(name: "Location", value: "/1/users/\(login.user.objectId)")
            return response
        }
        router.app(.get, "/1/login") { request, context in
            let login = try await users.logIn(
                account: request.http.query("username") ?? "", password: request.http.query("password") ?? "",
                context: context)
            return .json(rendered(login, context))
        }
        router.app(.post, "/1/login") { request, context in
            if let phone = try await VerificationRoutes.phoneLogin(request, context, users: users, allowSignUp: false) {
                return phone
            }
            let body = try request.jsonObjectBody()
            let login = try await users.logIn(
                account: body["username"]?.stringValue ?? body["email"]?.stringValue
                    ?? body["mobilePhoneNumber"]?.stringValue ?? "",
                password: body["password"]?.stringValue ?? "", context: context)
            return .json(rendered(login, context))
        }
        router.app(.post, "/1/logout") { request, context in
            let body = request.http.body.isEmpty ? [:] : try request.jsonObjectBody()
            try await users.logOut(userId: body["objectId"]?.stringValue, context: context)
            return .json(["msg": "ok"])
        }
        router.app(.get, "/1/checkSession/:objectId") { request, context in
            let valid = try await users.checkSession(userId: request.parameter("objectId"), context: context)
            return .json(["msg": valid ? "ok" : "fail"])
        }
        for method in [HTTPMethod.put, .post] {
            router.app(method, "/1/updateUserPassword/:objectId") { request, context in
                let body = try request.jsonObjectBody()
                guard let oldPassword = body["oldPassword"]?.stringValue, let newPassword = body["newPassword"]?.stringValue
                else {
                    throw BmobAPIError(.missingParameter, "oldPassword and newPassword are required")
                }
                try await users.updatePassword(
                    userId: request.parameter("objectId"), oldPassword: oldPassword, newPassword: newPassword,
                    context: context)
                return .json(["msg": "ok"])
            }
        }
        router.app(.get, "/1/users/:objectId/sessions") { request, context in
            let sessions = try await users.sessions(userId: request.parameter("objectId"), context: context)
            return .json(["results": .array(sessions)])
        }
        router.app(.delete, "/1/users/:objectId/sessions/:sessionId") { request, context in
            try await users.revokeSession(
                userId: request.parameter("objectId"), sessionId: request.parameter("sessionId"), context: context)
            return .json(["msg": "ok"])
        }
        ManagedClassReadRoutes.register(in: &router, path: "/1/users", className: UserService.className, objects: objects, queries: queries)
        router.app(.put, "/1/users/:objectId") { request, context in
            let user = try await users.update(
                userId: request.parameter("objectId"), body: try request.jsonObjectBody(), context: context)
            return .json(["updatedAt": .string(context.renderer.date(user.updatedAt))])
        }
        router.app(.delete, "/1/users/:objectId") { request, context in
            try await users.delete(userId: request.parameter("objectId"), context: context)
            return .json(["msg": "ok"])
        }
    }

    /// A logged-in user as Bmob answers login: every field (never the password; of `authData` only the linked
    /// ids) plus `sessionToken`.
    package static func rendered(_ login: UserService.Login, _ context: AppContext) -> JSONValue {
        var members = context.renderer(for: .grantees(["*", login.user.objectId])).render(login.user)
        members["sessionToken"] = .string(login.sessionToken)
        return .object(members)
    }
}
