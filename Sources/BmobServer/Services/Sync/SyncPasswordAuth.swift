import BmobStore
package import BmobWire

/// Password sign-in for sync clients (`POST /apps/<applicationId>/api/auth/password`), over Bmob users: the
/// token it answers is a Bmob session token, valid on every door.
///
/// Flows (`flow`):
/// - `signIn` (the default): `email` and `password` as a Bmob login (the account may be a username, an email or a
///   phone number, with Bmob's failed-login limits) → the session token.
/// - `signUp`: makes the user (`username` and `email` the address), mails a 6-digit code to it and answers no
///   token; a code is valid for 5 minutes, at most 1 a minute and 5 an hour go to one address.
/// - `email-verification`: `email` and the mailed `code` → marks the address verified and answers a session
///   token. Wrong codes count against the address as SMS codes do (5 burn its codes).
package struct SyncPasswordAuth: Sendable {
    /// What a flow answers: a session token with its user, or none when a code was mailed.
    package enum Outcome: Sendable, Equatable {
        case signedIn(token: String, userId: String)
        case codeSent
    }

    let operations: OperationRunner
    let clock: ServerClock
    let logger: Logger

    /// Code records are shared with SMS codes, keyed by this prefix and the address.
    static let codeSubjectPrefix = "mailto:"

    package init(operations: OperationRunner, clock: ServerClock, logger: Logger) {
        self.operations = operations
        self.clock = clock
        self.logger = logger
    }

    /// Runs the flow named in `body`.
    ///
    /// - Throws: ``BmobAPIError``: 107 for an unknown flow, 118 without an email or password (code), Bmob's
    ///   login, signup and code errors.
    package func run(_ body: [String: JSONValue], context: AppContext) async throws -> Outcome {
        guard let email = body["email"]?.stringValue, !email.isEmpty else {
            throw BmobAPIError(.missingParameter, "email is required")
        }
        guard email.utf8.count <= 256 else { throw BmobAPIError(.validationFailed, "email addresses are at most 256 bytes") }
        switch body["flow"]?.stringValue ?? "signIn" {
        case "signIn":
            let password = try Self.required("password", body)
            guard case .loggedIn(let login, _) = try await operations.run(.logIn(account: email, password: password), context: context)
            else { throw BmobAPIError(.internalError, "unexpected login outcome", status: .internalServerError) }
            return .signedIn(token: login.sessionToken, userId: login.user.objectId)
        case "signUp":
            let password = try Self.required("password", body)
            guard email.contains("@") else { throw BmobAPIError(.validationFailed, "invalid email address: \(email)") }
            guard case .signedUp(let login) = try await operations.run(
                .signUp(fields: ["username": .string(email), "email": .string(email), "password": .string(password)]),
                context: context)
            else { throw BmobAPIError(.internalError, "unexpected signup outcome", status: .internalServerError) }
            // The account exists; its token comes with the mailed code.
            try await operations.users.endSession(token: login.sessionToken, context: context)
            try await mailCode(to: email, context: context)
            return .codeSent
        case "email-verification":
            let code = body["code"]?.stringValue ?? body["password"]?.stringValue ?? ""
            guard !code.isEmpty else { throw BmobAPIError(.missingParameter, "code is required") }
            return try await verify(email: email, code: code, context: context)
        case let other:
            throw BmobAPIError(.invalidJSON, "flow must be signIn, signUp or email-verification, not \(other.prefix(40))")
        }
    }

    private static func required(_ name: String, _ body: [String: JSONValue]) throws -> String {
        guard let value = body[name]?.stringValue, !value.isEmpty else {
            throw BmobAPIError(.missingParameter, "\(name) is required")
        }
        return value
    }

    private func mailCode(to email: String, context: AppContext) async throws {
        let subject = Self.codeSubjectPrefix + email.lowercased()
        let now = clock.nowMilliseconds()
        let client = context.clientAddress
        let quota = operations.email.limits.emailQuota
        let code = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try SmsCodes.issue(phone: subject, template: nil, client: client, quota: quota, now: now, transaction: transaction)
            }
        }
        do {
            try await operations.email.provider.send(
                to: email, subject: "Your \(context.app.name) code",
                body: "Your code is \(code.code). It works once, for 5 minutes.", app: context.app)
        } catch {
            logger.error("mailing a sign-up code to \(email) failed: \(error)", metadata: ["app": context.app.applicationId])
            throw BmobAPIError(.internalError, "the code could not be mailed; try again later", status: .internalServerError)
        }
    }

    private func verify(email: String, code: String, context: AppContext) async throws -> Outcome {
        let subject = Self.codeSubjectPrefix + email.lowercased()
        let now = clock.nowMilliseconds()
        let (token, session) = operations.users.makeSession(now: now)
        let userId = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> String? in
                guard let match = try SmsCodes.match(phone: subject, code: code, client: nil, now: now, transaction: transaction) else {
                    try SmsCodes.recordMismatch(phone: subject, client: nil, now: now, transaction: transaction)
                    return nil
                }
                guard let user = try UserService.users(where: "email", is: email, limit: 1, transaction: transaction).first else {
                    throw BmobAPIError(.objectNotFound, "no user has the email \(email)")
                }
                try SmsCodes.consume(match, now: now, transaction: transaction)
                if user.fields["emailVerified"] != .bool(true) {
                    _ = try ObjectService.update(
                        className: UserService.className, objectId: user.objectId, body: ["emailVerified": true], now: now,
                        transaction: transaction)
                }
                try transaction.insertSession(session(user.objectId))
                return user.objectId
            }
        }
        guard let userId else {
            throw BmobAPIError(.invalidCode, "invalid code: wrong, already used or expired")
        }
        return .signedIn(token: token, userId: userId)
    }
}
