import BmobCrypto
package import BmobIO
package import BmobStore
package import BmobWire

/// Users and their sessions: signup, login, the checks that guard changes to a user, logout and password
/// changes. REST `/1/users`, `/1/login`, … and the native `signup`, `login`, … routes both call it.
///
/// Passwords and session tokens never live in the `_User` table: the store keeps a password's scrypt hash and
/// each token's SHA-256 in tables of their own, so no query, include, batch answer or journal entry can return
/// them. Hashing runs on the blocking pool, never on an event loop, and only once the cheap checks passed: a
/// taken name, a client over its limit or a login that must wait costs no scrypt.
///
/// A username, an email address and a phone number all name an account at login, so they share one namespace:
/// no account's username may equal another account's email or phone number, and so on (see
/// ``checkUnique(_:except:transaction:)``).
package struct UserService: Sendable {
    /// The class of users.
    package static let className = "_User"

    /// The longest username, email or phone number, in UTF-8 bytes.
    package static let maximumIdentityBytes = 256
    /// The longest password, in UTF-8 bytes.
    package static let maximumPasswordBytes = 1024

    /// Fields a client may not set through updates: the password has its own endpoint, the verification
    /// flags are the server's to set.
    static let protectedFields: Set<String> = ["password", "sessionToken", "emailVerified", "mobilePhoneVerified"]

    package let clock: ServerClock
    /// Who the caller is; caches sessions per app.
    package let callers: CallerResolver
    package let ids: ObjectIdGenerator
    /// Where password hashing runs.
    package let hashing: ThreadPool
    /// How long a session lasts, in milliseconds (Bmob: 7 days).
    package let sessionLifetimeMilliseconds: Int64
    /// Third-party login checks, by the app's `authProviders` settings.
    package let validators: AuthDataValidators
    /// How failed logins slow further ones, and how many signups a client address may make.
    package let limits: AccountLimits
    /// Called before each scrypt hash or verification: tests count the calls to show that a refused request
    /// costs none.
    package let passwordWorkObserver: (@Sendable () -> Void)?

    /// A user service; `limits` and `passwordWorkObserver` default to the standard limits and no observer.
    package init(
        clock: ServerClock, hashing: ThreadPool, ids: ObjectIdGenerator = .ascending,
        sessionLifetimeSeconds: Int64 = 7 * 24 * 3600, validators: AuthDataValidators = .builtIn,
        limits: AccountLimits = AccountLimits(), passwordWorkObserver: (@Sendable () -> Void)? = nil,
        callers: CallerResolver? = nil
    ) {
        self.callers = callers ?? CallerResolver(clock: clock)
        self.clock = clock
        self.hashing = hashing
        self.validators = validators
        self.ids = ids
        self.sessionLifetimeMilliseconds = sessionLifetimeSeconds * 1000
        self.limits = limits
        self.passwordWorkObserver = passwordWorkObserver
    }

    /// A signed-up or logged-in user, with the token of the session just made.
    package struct Login: Sendable {
        package var user: StoredObject
        package var sessionToken: String
    }

    // MARK: - Signup and login

    /// Creates a user from `username`, `password` and any other fields, and logs it in.
    ///
    /// The identities are checked and the client's signup counted in a first, cheap write; only then is the
    /// password hashed, and the final write checks the identities again (another signup may have taken one
    /// meanwhile).
    ///
    /// - Throws: 108 without username or password, 202/203/209 when the username, email or phone number is
    ///   taken (as any of the three by another account), 10076 when the client address made too many signups
    ///   (``AccountLimits/signupsPerClientPerHour``; not for the master key), 111/105/107 for bad fields as any
    ///   create.
    package func signUp(body: [String: JSONValue], context: AppContext) async throws -> Login {
        var fields = body
        guard case .string(let username)? = fields["username"], !username.isEmpty,
            case .string(let password)? = fields["password"], !password.isEmpty
        else {
            throw BmobAPIError(.usernamePasswordRequired, "username and password are required")
        }
        try Self.checkIdentityTypes(fields)
        for name in Self.protectedFields { fields[name] = nil }
        Self.addVerificationDefaults(to: &fields)
        let userFields = fields
        let quota = context.isMaster ? nil : limits.signupQuota
        let client = context.clientAddress
        let checkedAt = clock.nowMilliseconds()
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try Self.checkUnique(userFields, except: nil, transaction: transaction)
                try quota?.admit(
                    client: client, now: checkedAt, transaction: transaction, code: .rateLimited, what: "signups")
            }
        }
        let hash = try await hashPassword(password)
        let now = clock.nowMilliseconds()
        let (token, session) = makeSession(now: now)
        let ids = self.ids
        let user = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try Self.checkUnique(userFields, except: nil, transaction: transaction)
                let user = try ObjectService.insert(
                    className: Self.className, body: userFields, now: now, ids: ids,
                    security: context.app.security, transaction: transaction)
                try transaction.setCredential(userId: user.objectId, hash: hash)
                try transaction.insertSession(session(user.objectId))
                return user
            }
        }
        return Login(user: user, sessionToken: token)
    }

    /// Logs in with a username, email or phone number and a password.
    ///
    /// The identifier resolves to one account even on legacy data where it names several (say one account's
    /// username is another's email, stored before identities shared one namespace): every account it names is
    /// a candidate, and the password picks the one it opens. Refusing ambiguous logins instead would let whoever
    /// took another's email as their username keep that person from logging in by email, and so would the old
    /// rule (only the account found first, by username, was tried). A password that opens several candidates
    /// proves the caller holds all of them, so the first in the order username, email, phone wins. Only
    /// colliding identifiers cost more than one scrypt verification (at most three).
    ///
    /// - Throws: 101 "username or password incorrect" for an unknown account or a wrong password (the same
    ///   answer, so accounts cannot be probed), 10076 while failed logins make this one wait (see
    ///   ``checkLoginLimits(account:userIds:client:now:transaction:)``).
    package func logIn(account: String, password: String, context: AppContext) async throws -> Login {
        guard !account.isEmpty, !password.isEmpty else {
            throw BmobAPIError(.usernamePasswordRequired, "username and password are required")
        }
        guard account.utf8.count <= Self.maximumIdentityBytes, password.utf8.count <= Self.maximumPasswordBytes else {
            throw BmobAPIError(.objectNotFound, "username or password incorrect.")
        }
        let client = context.clientAddress
        let checkedAt = clock.nowMilliseconds()
        let candidates = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction -> [(StoredObject, String?)] in
                let users = try Self.findAccounts(account, transaction: transaction)
                try checkLoginLimits(
                    account: account, userIds: users.map(\.objectId), client: client, now: checkedAt,
                    transaction: transaction)
                return try users.map { ($0, try transaction.credential(userId: $0.objectId)) }
            }
        }
        let userIds = candidates.map(\.0.objectId)
        var matched: (user: StoredObject, hash: String)?
        var verified = false
        for (user, hash) in candidates {
            guard let hash else { continue }
            verified = true
            if try await verifyPassword(password, against: hash) {
                matched = (user, hash)
                break
            }
        }
        // Hash even for unknown accounts, so that timing does not tell them apart.
        if !verified { _ = try await verifyPassword(password, against: Self.decoyHash) }
        let rehash: String? =
            if let matched, PasswordHash.needsRehash(matched.hash) { try await hashPassword(password) } else { nil }
        let winner = matched?.user
        let now = clock.nowMilliseconds()
        let (token, session) = makeSession(now: now)
        let outcome = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> BmobAPIError? in
                // Checked again where the outcome is revealed, in order: guesses raced past the first check
                // in parallel are answered 10076, right or wrong.
                if let refusal = try loginRefusal(
                    account: account, userIds: userIds, client: client, now: now, transaction: transaction)
                {
                    return refusal
                }
                guard let user = winner else {
                    try recordLoginFailure(
                        account: account, userIds: userIds, client: client, now: now, transaction: transaction)
                    return BmobAPIError(.objectNotFound, "username or password incorrect.")
                }
                try transaction.insertSession(session(user.objectId))
                try Self.recordLoginSuccess(userId: user.objectId, client: client, now: now, transaction: transaction)
                if let rehash { try transaction.setCredential(userId: user.objectId, hash: rehash) }
                return nil
            }
        }
        if let outcome { throw outcome }
        guard let user = winner else { throw BmobAPIError(.objectNotFound, "username or password incorrect.") }
        return Login(user: user, sessionToken: token)
    }

    // MARK: - Sessions

    /// The user id the request's session token belongs to, or `nil` without a valid token.
    package func sessionUserId(_ context: AppContext) async throws -> String? {
        try await callers.sessionUserId(context)
    }

    /// Whether the request's session token is a valid session of `userId`.
    package func checkSession(userId: String, context: AppContext) async throws -> Bool {
        try await sessionUserId(context) == userId
    }

    /// Ends the request's session.
    ///
    /// - Throws: 211 when the token is missing or not a session (of `userId`, when given).
    package func logOut(userId: String?, context: AppContext) async throws {
        guard let token = context.sessionToken, let owner = try await sessionUserId(context),
            userId == nil || userId == owner
        else {
            throw BmobAPIError(.invalidSession, "invalid session token")
        }
        let tokenHash = SHA256.hex(Array(token.utf8))
        _ = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try transaction.deleteSession(tokenHash: tokenHash)
            }
        }
        context.sessions.forget(tokenHash: tokenHash)
    }

    /// Ends the session of `token` (a login a `beforeLogin` trigger refused).
    package func endSession(token: String, context: AppContext) async throws {
        let tokenHash = SHA256.hex(Array(token.utf8))
        _ = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try transaction.deleteSession(tokenHash: tokenHash)
            }
        }
        context.sessions.forget(tokenHash: tokenHash)
    }

    /// Changes a user's password after checking the old one, and ends the user's other sessions.
    ///
    /// - Throws: 206 without that user's session (or the master key), 210 for a wrong old password.
    package func updatePassword(userId: String, oldPassword: String, newPassword: String, context: AppContext) async throws {
        try await requireOwner(userId, context)
        guard !newPassword.isEmpty else { throw BmobAPIError(.missingParameter, "newPassword is required") }
        guard newPassword.utf8.count <= Self.maximumPasswordBytes, oldPassword.utf8.count <= Self.maximumPasswordBytes else {
            throw BmobAPIError(.validationFailed, "passwords are at most \(Self.maximumPasswordBytes) bytes")
        }
        let stored = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in try transaction.credential(userId: userId) }
        }
        guard let stored else { throw BmobAPIError.objectNotFound(userId) }
        guard try await verifyPassword(oldPassword, against: stored) else {
            throw BmobAPIError(.oldPasswordIncorrect, "old password incorrect.")
        }
        let hash = try await hashPassword(newPassword)
        let keep = context.sessionToken.map { SHA256.hex(Array($0.utf8)) }
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try transaction.setCredential(userId: userId, hash: hash)
                try transaction.deleteSessions(userId: userId, except: context.isMaster ? nil : keep)
            }
        }
        context.sessions.forget(userId: userId)
    }

    // MARK: - Changing users

    /// Updates a user's fields (not the password).
    ///
    /// - Throws: 206 without that user's session or the master key, 202/203/209 for a taken identity, 101 for
    ///   an unknown user; the master key may also set `password`.
    package func update(userId: String, body: [String: JSONValue], context: AppContext) async throws -> StoredObject {
        try await requireOwner(userId, context)
        var fields = body
        try Self.checkIdentityTypes(fields)
        let links = try await validatedLinks(fields["authData"], context: context)
        fields["authData"] = nil
        var newHash: String?
        if case .string(let password)? = fields["password"], context.isMaster, !password.isEmpty {
            newHash = try await hashPassword(password)
        }
        for name in Self.protectedFields where !(context.isMaster && name.hasSuffix("Verified")) {
            fields[name] = nil
        }
        // A new address is not verified yet (the master key may say otherwise in the same update).
        if case .string? = fields["email"], fields["emailVerified"] == nil { fields["emailVerified"] = false }
        let now = clock.nowMilliseconds()
        let hash = newHash
        let changes = fields
        let user = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try Self.checkUnique(changes, except: userId, transaction: transaction)
                var body = changes
                if let links {
                    body["authData"] = try Self.linkedAuthData(links, userId: userId, transaction: transaction)
                }
                let user = try ObjectService.update(
                    className: Self.className, objectId: userId, body: body, now: now,
                    security: context.app.security, transaction: transaction)
                if let hash {
                    try transaction.setCredential(userId: userId, hash: hash)
                    try transaction.deleteSessions(userId: userId, except: nil)
                }
                return user
            }
        }
        if hash != nil { context.sessions.forget(userId: userId) }
        return user
    }

    /// Deletes a user with its password and sessions.
    ///
    /// - Throws: 206 without that user's session or the master key, 101 for an unknown user.
    package func delete(userId: String, context: AppContext) async throws {
        try await requireOwner(userId, context)
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                guard try transaction.fetch(className: Self.className, objectId: userId) != nil else {
                    throw BmobAPIError.objectNotFound(userId)
                }
                try transaction.delete(className: Self.className, objectId: userId)
                try transaction.deleteAccount(userId: userId)
            }
        }
        context.sessions.forget(userId: userId)
    }

    /// Passes with the master key or a valid session of `userId`.
    ///
    /// - Throws: 206 "User cannot be altered without sessionToken Error." otherwise.
    package func requireOwner(_ userId: String, _ context: AppContext) async throws {
        if context.isMaster { return }
        guard try await sessionUserId(context) == userId else {
            throw BmobAPIError(.sessionRequired, "User cannot be altered without sessionToken Error.")
        }
    }

    // MARK: - Helpers

    /// A new random token and, for a user id, the session row that stores its hash.
    func makeSession(now: Int64) -> (String, @Sendable (String) -> StoredSession) {
        let token = SecureRandom.hex(byteCount: 16)
        let tokenHash = SHA256.hex(Array(token.utf8))
        let expiresAt = now + sessionLifetimeMilliseconds
        return (token, { userId in StoredSession(tokenHash: tokenHash, userId: userId, createdAt: now, expiresAt: expiresAt) })
    }

    /// Hashes a new password on the blocking pool.
    func hashPassword(_ password: String) async throws -> String {
        passwordWorkObserver?()
        return try await hashing.run { _ in PasswordHash.make(password) }
    }

    /// Whether `password` matches a stored hash, checked on the blocking pool.
    func verifyPassword(_ password: String, against hash: String) async throws -> Bool {
        passwordWorkObserver?()
        return try await hashing.run { _ in PasswordHash.verify(password, against: hash) }
    }

    /// A valid hash of no one's password, verified against when an account does not exist.
    private static let decoyHash = PasswordHash.make(SecureRandom.hex(byteCount: 16))


    /// `username`, `email` and `mobilePhoneNumber` must be strings when present (111 otherwise).
    static func checkIdentityTypes(_ fields: [String: JSONValue]) throws {
        for name in ["username", "email", "mobilePhoneNumber", "password"] {
            switch fields[name] {
            case nil: continue
            case .string(let text)?:
                // Identities are looked up and compared; passwords are hashed: both have sane upper bounds.
                let limit = name == "password" ? maximumPasswordBytes : maximumIdentityBytes
                if text.utf8.count > limit {
                    throw BmobAPIError(.validationFailed, "\(name) is longer than \(limit) bytes")
                }
            default: throw BmobAPIError(.incorrectType, "invalid type for key '\(name)', expected 'String'")
            }
        }
        if case .string(let email)? = fields["email"], !email.isEmpty, !email.contains("@") {
            throw BmobAPIError(.validationFailed, "invalid email address: \(email)")
        }
    }

    /// The fields that name an account at login, with the code answered when a new value is taken.
    static let identityFields: [(field: String, taken: BmobErrorCode)] = [
        ("username", .usernameTaken), ("email", .emailTaken), ("mobilePhoneNumber", .mobilePhoneTaken),
    ]

    /// 202/203/209 when another user has the username, email or phone number in `fields` as any of its three
    /// identities: all three name an account at login, so a username equal to another account's email would
    /// shadow that account's login by email. The code is that of the field of `fields` that collides. A user's
    /// own identities may equal each other (a phone signup's username is its number).
    static func checkUnique(_ fields: [String: JSONValue], except userId: String?, transaction: any StoreReadTransaction) throws {
        for (field, code) in identityFields {
            guard case .string(let value)? = fields[field], !value.isEmpty else { continue }
            for (other, _) in identityFields {
                let owners = try users(where: other, is: value, limit: 2, transaction: transaction).map(\.objectId)
                if owners.contains(where: { $0 != userId }) {
                    throw BmobAPIError(code, "\(field) '\(value)' already taken.")
                }
            }
        }
    }

    /// The users whose username, email or phone number is `account`, in that order of fields, each once: one
    /// user, except on legacy data stored before identities shared one namespace.
    private static func findAccounts(_ account: String, transaction: any StoreReadTransaction) throws -> [StoredObject] {
        var found: [StoredObject] = []
        for (field, _) in identityFields {
            for user in try users(where: field, is: account, limit: 1, transaction: transaction)
            where !found.contains(where: { $0.objectId == user.objectId }) {
                found.append(user)
            }
        }
        return found
    }

    /// Users whose field (a dot path) equals `value`.
    static func users(where path: String, is value: String, limit: Int, transaction: any StoreReadTransaction) throws -> [StoredObject] {
        let condition = QueryCondition.field(path: path, constraints: [.equalTo(.string(value))])
        return try transaction.find(FindQuery(className: className, condition: condition, limit: limit))
    }
}
