import BmobWire

extension RESTAPI {
    /// Users, sessions, roles, SMS codes and mailed links.
    static let users: [String: OpenAPIOperation] = accounts
        .merging(roles) { first, _ in first }
        .merging(verification) { first, _ in first }

    private static let accounts: [String: OpenAPIOperation] = [
        "POST /1/users": OpenAPIOperation(
            "Sign up (username and password), or log in or sign up with `authData` or `mobilePhoneNumber` + `smsCode`",
            tag: "Users",
            body: .json(
                OpenAPISchemas.object([
                    "username": OpenAPISchemas.string, "password": OpenAPISchemas.string,
                    "email": OpenAPISchemas.string, "mobilePhoneNumber": OpenAPISchemas.string,
                    "smsCode": OpenAPISchemas.string, "authData": ["type": "object"],
                ], example: ["username": "alice", "password": "correct horse"]), "the new user's fields"),
            answers: [
                .created(OpenAPISchemas.ref("SignedUp"), "a new user and its session"),
                .json(OpenAPISchemas.ref("LoggedIn"), "an existing account's login (third-party or phone), or a phone signup"),
            ]),
        "GET /1/login": OpenAPIOperation(
            "Log in with a username, email or phone number and a password", tag: "Users",
            parameters: [
                .query("username", "a username, email address or phone number"),
                .query("password", "the password"),
            ],
            answers: [.json(OpenAPISchemas.ref("LoggedIn"), "the user and a new session token")]),
        "POST /1/login": OpenAPIOperation(
            "Log in with a password, or with `mobilePhoneNumber` + `smsCode`", tag: "Users",
            body: .json(
                OpenAPISchemas.object([
                    "username": OpenAPISchemas.string, "email": OpenAPISchemas.string,
                    "mobilePhoneNumber": OpenAPISchemas.string, "password": OpenAPISchemas.string,
                    "smsCode": OpenAPISchemas.string,
                ]), "the credentials"),
            answers: [.json(OpenAPISchemas.ref("LoggedIn"), "the user and a new session token")]),
        "POST /1/logout": OpenAPIOperation(
            "End the session of `X-Bmob-Session-Token`", tag: "Users",
            body: .json(
                OpenAPISchemas.object(["objectId": OpenAPISchemas.string]), "the user's id (optional)", required: false),
            answers: [.ok]),
        "GET /1/checkSession/:objectId": OpenAPIOperation(
            "Whether `X-Bmob-Session-Token` is a valid session of the user", tag: "Users", parameters: [userId],
            answers: [
                .json(
                    OpenAPISchemas.object(["msg": ["enum": ["ok", "fail"]]], required: ["msg"]),
                    "`ok` for a valid session, `fail` otherwise")
            ]),
        "PUT /1/updateUserPassword/:objectId": updatePassword,
        "POST /1/updateUserPassword/:objectId": updatePassword,
        "GET /1/users/:objectId/sessions": OpenAPIOperation(
            "List a user's sessions (its own session or the Master Key)", tag: "Users", parameters: [userId],
            answers: [
                .json(
                    OpenAPISchemas.object(
                        ["results": ["type": "array", "items": OpenAPISchemas.ref("Session")]], required: ["results"]),
                    "the unexpired sessions")
            ]),
        "DELETE /1/users/:objectId/sessions/:sessionId": OpenAPIOperation(
            "End one of a user's sessions", tag: "Users",
            parameters: [
                userId, .path("sessionId", "the session's listed id", schema: ["type": "string", "minLength": 1]),
            ],
            answers: [.ok]),
        "GET /1/users": OpenAPIOperation(
            "Find users", tag: "Users", parameters: findParameters,
            answers: [.json(OpenAPISchemas.ref("Results"), "the users found, as the caller may see them")]),
        "GET /1/users/:objectId": OpenAPIOperation(
            "Get a user", tag: "Users", parameters: [userId] + getParameters,
            answers: [.json(OpenAPISchemas.ref("Object"), "the user as the caller may see it")]),
        "PUT /1/users/:objectId": OpenAPIOperation(
            "Update a user (its own session or the Master Key)", tag: "Users", parameters: [userId],
            body: .json(
                OpenAPISchemas.ref("Fields"), "fields to set; `authData` links or unlinks accounts; none only moves `updatedAt`",
                required: false),
            answers: [.json(OpenAPISchemas.ref("Updated"), "the new update date")]),
        "DELETE /1/users/:objectId": OpenAPIOperation(
            "Delete a user (its own session or the Master Key)", tag: "Users", parameters: [userId], answers: [.ok]),
    ]

    private static let updatePassword = OpenAPIOperation(
        "Change a user's password (its own session)", tag: "Users", parameters: [userId],
        body: .json(
            OpenAPISchemas.object(
                ["oldPassword": OpenAPISchemas.string, "newPassword": OpenAPISchemas.string],
                required: ["oldPassword", "newPassword"]), "the old and the new password"),
        answers: [.ok])

    private static let roleId = OpenAPIParameter.path("objectId", "the role's id", schema: ["type": "string", "minLength": 1])

    private static let roles: [String: OpenAPIOperation] = [
        "POST /1/roles": OpenAPIOperation(
            "Create a role", tag: "Roles",
            body: .json(
                OpenAPISchemas.object(
                    ["name": OpenAPISchemas.string, "users": ["type": "object"], "roles": ["type": "object"]],
                    required: ["name"], example: ["name": "Moderators"]),
                "its name (letters, digits, space, `-`, `_`), ACL and members"),
            answers: [.created(OpenAPISchemas.ref("Created"), "the new role's id and creation date")]),
        "GET /1/roles": OpenAPIOperation(
            "Find roles", tag: "Roles", parameters: findParameters,
            answers: [.json(OpenAPISchemas.ref("Results"), "the roles found")]),
        "GET /1/roles/:objectId": OpenAPIOperation(
            "Get a role", tag: "Roles", parameters: [roleId] + getParameters,
            answers: [.json(OpenAPISchemas.ref("Object"), "the role")]),
        "PUT /1/roles/:objectId": OpenAPIOperation(
            "Update a role (its members with `AddRelation`/`RemoveRelation`)", tag: "Roles", parameters: [roleId],
            body: .json(OpenAPISchemas.ref("Fields"), "fields and operators; none only moves `updatedAt`", required: false),
            answers: [.json(OpenAPISchemas.ref("Updated"), "the new update date")]),
        "DELETE /1/roles/:objectId": OpenAPIOperation(
            "Delete a role", tag: "Roles", parameters: [roleId], answers: [.ok]),
    ]

    private static let phone = OpenAPISchemas.string
    private static let code = OpenAPIParameter.path("code", "the code received", schema: ["type": "string", "minLength": 1])
    private static let token = OpenAPIParameter.path(
        "token", "the token of the mailed link", schema: ["type": "string", "minLength": 1])

    private static let verification: [String: OpenAPIOperation] = [
        "POST /1/requestSmsCode": OpenAPIOperation(
            "Send an SMS code to a phone number", tag: "Verification",
            body: .json(
                OpenAPISchemas.object(
                    ["mobilePhoneNumber": phone, "template": OpenAPISchemas.string],
                    example: ["mobilePhoneNumber": "13800000000"]), "the number and the template's name"),
            answers: [
                .json(OpenAPISchemas.object(["smsId": OpenAPISchemas.integer], required: ["smsId"]), "the SMS's id")
            ]),
        "POST /1/verifySmsCode/:code": OpenAPIOperation(
            "Check (and use up) an SMS code", tag: "Verification", parameters: [code],
            body: .json(OpenAPISchemas.object(["mobilePhoneNumber": phone]), "the number"), answers: [.ok]),
        "POST /1/verifySmsCode": OpenAPIOperation(
            "Check (and use up) an SMS code", tag: "Verification",
            body: .json(
                OpenAPISchemas.object(["mobilePhoneNumber": phone, "smsCode": OpenAPISchemas.string]),
                "the number and the code"),
            answers: [.ok]),
        "GET /1/querySms/:smsId": OpenAPIOperation(
            "How an SMS's delivery went", tag: "Verification",
            parameters: [.path("smsId", "the id `requestSmsCode` answered", schema: ["type": "string", "minLength": 1])],
            answers: [
                .json(
                    OpenAPISchemas.object(
                        [
                            "sms_state": ["enum": ["SENDING", "SUCCESS", "FAIL"]],
                            "verify_state": ["type": "boolean"],
                        ], required: ["sms_state", "verify_state"]),
                    "its state, and whether the code was used")
            ]),
        "PUT /1/resetPasswordBySmsCode/:code": OpenAPIOperation(
            "Set a new password with an SMS code", tag: "Verification", parameters: [code],
            body: .json(
                OpenAPISchemas.object(["password": OpenAPISchemas.string, "mobilePhoneNumber": phone]),
                "the new password (and the number)"),
            answers: [.ok]),
        "POST /1/requestPasswordReset": OpenAPIOperation(
            "Mail a password reset link", tag: "Verification",
            body: .json(OpenAPISchemas.object(["email": OpenAPISchemas.string]), "the account's address"),
            answers: [.ok]),
        "POST /1/requestEmailVerify": OpenAPIOperation(
            "Mail an address verification link", tag: "Verification",
            body: .json(OpenAPISchemas.object(["email": OpenAPISchemas.string]), "the address"), answers: [.ok]),
        "GET /1/resetPassword/:token": OpenAPIOperation(
            "The new-password form of a mailed link (the token names the app)", tag: "Verification", access: .open,
            parameters: [token],
            answers: [.page(200, "the form")] + linkErrors),
        "POST /1/resetPassword/:token": OpenAPIOperation(
            "Set the new password of a mailed link", tag: "Verification", access: .open, parameters: [token],
            body: .formOrJSON(
                OpenAPISchemas.object(["password": OpenAPISchemas.string, "confirm": OpenAPISchemas.string]),
                "the new password (twice, from the form)"),
            answers: [.pageOrOk(200, "a page for the form, `{\"msg\": \"ok\"}` for JSON")] + linkErrors),
        "GET /1/verifyEmail/:token": OpenAPIOperation(
            "Verify the address of a mailed link", tag: "Verification", access: .open, parameters: [token],
            answers: [.pageOrOk(200, "a page for a browser (`Accept: text/html`), `{\"msg\": \"ok\"}` otherwise")]
                + linkErrors),
    ]

    /// A link's errors: a page for a browser, Bmob's JSON otherwise.
    private static let linkErrors: [OpenAPIAnswer] = [400, 503].map {
        .pageOrError($0, "a Bmob error: a page for a browser (`Accept: text/html`), JSON otherwise")
    }
}
