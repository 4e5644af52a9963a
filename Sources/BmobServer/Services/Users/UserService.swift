import BmobCrypto
package import BmobIO
package import BmobStore
package import BmobWire

/// Users and their sessions: signup, login, the checks that guard changes to a user, logout and password
/// changes. REST `/1/users`, `/1/login`, … and the native `signup`, `login`, … routes both call it.
///
/// Passwords and session tokens never live in the `_User` table: the store keeps a password's scrypt hash and
/// each token's SHA-256 in tables of their own, so no query, include, batch answer or journal entry can return
/// them. Hashing runs on the blocking pool, never on an event loop.
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
    package let ids: ObjectIdGenerator
    /// Where password hashing runs.
    package let hashing: ThreadPool
    /// How long a session lasts, in milliseconds (Bmob: 7 days).
    package let sessionLifetimeMilliseconds: Int64
    /// Third-party login checks, by the app's `authProviders` settings.
    package let validators: AuthDataValidators

    package init(
        clock: ServerClock, hashing: ThreadPool, ids: ObjectIdGenerator = .ascending,
        sessionLifetimeSeconds: Int64 = 7 * 24 * 3600, validators: AuthDataValidators = .builtIn
    ) {
        self.clock = clock
        self.hashing = hashing
        self.validators = validators
        self.ids = ids
        self.sessionLifetimeMilliseconds = sessionLifetimeSeconds * 1000
    }

    /// A signed-up or logged-in user, with the token of the session just made.
    package struct Login: Sendable {
        package var user: StoredObject
        package var sessionToken: String
    }

    // MARK: - Signup and login

    /// Creates a user from `username`, `password` and any other fields, and logs it in.
    ///
    /// - Throws: 108 without username or password, 202/203/209 when the username, email or phone number is
    ///   taken, 111/105/107 for bad fields as any create.
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
        let hash = try await hashing.run { _ in PasswordHash.make(password) }
        let now = clock.nowMilliseconds()
        let (token, session) = makeSession(now: now)
        let ids = self.ids
        let user = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try Self.checkUnique(userFields, except: nil, transaction: transaction)
                let user = try ObjectService.insert(
                    className: Self.className, body: userFields, now: now, ids: ids, transaction: transaction)
                try transaction.setCredential(userId: user.objectId, hash: hash)
                try transaction.insertSession(session(user.objectId))
                return user
            }
        }
        return Login(user: user, sessionToken: token)
    }

    /// Logs in with a username, email or phone number and a password.
    ///
    /// - Throws: 101 "username or password incorrect" for an unknown account or a wrong password (the same
    ///   answer, so accounts cannot be probed).
    package func logIn(account: String, password: String, context: AppContext) async throws -> Login {
        guard !account.isEmpty, !password.isEmpty else {
            throw BmobAPIError(.usernamePasswordRequired, "username and password are required")
        }
        guard account.utf8.count <= Self.maximumIdentityBytes, password.utf8.count <= Self.maximumPasswordBytes else {
            throw BmobAPIError(.objectNotFound, "username or password incorrect.")
        }
        let client = context.clientAddress
        let now = clock.nowMilliseconds()
        let (found, hash) = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction -> (StoredObject?, String?) in
                let user = try Self.findAccount(account, transaction: transaction)
                try Self.checkLoginLimits(
                    account: account, userId: user?.objectId, client: client, now: now, transaction: transaction)
                return (user, try user.flatMap { try transaction.credential(userId: $0.objectId) })
            }
        }
        // Hash even for unknown accounts, so that timing does not tell them apart.
        let stored = hash ?? Self.decoyHash
        let valid = try await hashing.run { _ in PasswordHash.verify(password, against: stored) }
        guard let user = found, hash != nil, valid else {
            try await recordLoginFailure(account: account, userId: found?.objectId, client: client, context: context)
            throw BmobAPIError(.objectNotFound, "username or password incorrect.")
        }
        let rehash: String? =
            PasswordHash.needsRehash(stored) ? try await hashing.run { _ in PasswordHash.make(password) } : nil
        let (token, session) = makeSession(now: now)
        _ = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try transaction.insertSession(session(user.objectId))
                try Self.clearLoginFailures(userId: user.objectId, transaction: transaction)
                if let rehash { try transaction.setCredential(userId: user.objectId, hash: rehash) }
            }
        }
        return Login(user: user, sessionToken: token)
    }

    // MARK: - Sessions

    /// The user id the request's session token belongs to, or `nil` without a valid token.
    package func sessionUserId(_ context: AppContext) async throws -> String? {
        guard let token = context.sessionToken, !token.isEmpty else { return nil }
        let tokenHash = SHA256.hex(Array(token.utf8))
        let now = clock.nowMilliseconds()
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                guard let session = try transaction.session(tokenHash: tokenHash), session.expiresAt > now else {
                    return nil
                }
                return session.userId
            }
        }
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
            try await context.store.write(caller: context.callerDescription) { transaction in
                try transaction.deleteSession(tokenHash: tokenHash)
            }
        }
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
        let valid = try await hashing.run { _ in PasswordHash.verify(oldPassword, against: stored) }
        guard valid else { throw BmobAPIError(.oldPasswordIncorrect, "old password incorrect.") }
        let hash = try await hashing.run { _ in PasswordHash.make(newPassword) }
        let keep = context.sessionToken.map { SHA256.hex(Array($0.utf8)) }
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try transaction.setCredential(userId: userId, hash: hash)
                try transaction.deleteSessions(userId: userId, except: context.isMaster ? nil : keep)
            }
        }
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
            newHash = try await hashing.run { _ in PasswordHash.make(password) }
        }
        for name in Self.protectedFields where !(context.isMaster && name.hasSuffix("Verified")) {
            fields[name] = nil
        }
        // A new address is not verified yet (the master key may say otherwise in the same update).
        if case .string? = fields["email"], fields["emailVerified"] == nil { fields["emailVerified"] = false }
        let now = clock.nowMilliseconds()
        let hash = newHash
        let changes = fields
        return try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try Self.checkUnique(changes, except: userId, transaction: transaction)
                var body = changes
                if let links {
                    body["authData"] = try Self.linkedAuthData(links, userId: userId, transaction: transaction)
                }
                let user = try ObjectService.update(
                    className: Self.className, objectId: userId, body: body, now: now, transaction: transaction)
                if let hash {
                    try transaction.setCredential(userId: userId, hash: hash)
                    try transaction.deleteSessions(userId: userId, except: nil)
                }
                return user
            }
        }
    }

    /// Deletes a user with its password and sessions.
    ///
    /// - Throws: 206 without that user's session or the master key, 101 for an unknown user.
    package func delete(userId: String, context: AppContext) async throws {
        try await requireOwner(userId, context)
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                guard try transaction.fetch(className: Self.className, objectId: userId) != nil else {
                    throw BmobAPIError.objectNotFound(userId)
                }
                try transaction.delete(className: Self.className, objectId: userId)
                try transaction.deleteAccount(userId: userId)
            }
        }
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

    /// 202/203/209 when another user has the username, email or phone number in `fields`.
    static func checkUnique(_ fields: [String: JSONValue], except userId: String?, transaction: any StoreReadTransaction) throws {
        let checks: [(String, BmobErrorCode, String)] = [
            ("username", .usernameTaken, "username"), ("email", .emailTaken, "email"),
            ("mobilePhoneNumber", .mobilePhoneTaken, "mobilePhoneNumber"),
        ]
        for (field, code, label) in checks {
            guard case .string(let value)? = fields[field], !value.isEmpty else { continue }
            let owners = try users(where: field, is: value, limit: 2, transaction: transaction).map(\.objectId)
            if owners.contains(where: { $0 != userId }) {
                throw BmobAPIError(code, "\(label) '\(value)' already taken.")
            }
        }
    }

    /// The user whose username, email or phone number is `account`.
    private static func findAccount(_ account: String, transaction: any StoreReadTransaction) throws -> StoredObject? {
        for field in ["username", "email", "mobilePhoneNumber"] {
            if let user = try users(where: field, is: account, limit: 1, transaction: transaction).first { return user }
        }
        return nil
    }

    /// Users whose field (a dot path) equals `value`.
    static func users(where path: String, is value: String, limit: Int, transaction: any StoreReadTransaction) throws -> [StoredObject] {
        let condition = QueryCondition.field(path: path, constraints: [.equalTo(.string(value))])
        return try transaction.find(FindQuery(className: className, condition: condition, limit: limit))
    }
}
