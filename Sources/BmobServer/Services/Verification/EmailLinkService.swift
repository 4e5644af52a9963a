import BmobCrypto
package import BmobIO
package import BmobStore
import BmobWire

/// Emailed links: password reset (`POST /1/requestPasswordReset`, native `reset` with an email) and email
/// verification (`POST /1/requestEmailVerify`, native `email_verify`), and what happens when a link is
/// followed (`GET`/`POST /1/resetPassword/<token>`, `GET /1/verifyEmail/<token>`, see ``VerificationRoutes``).
///
/// A link's token is `<applicationId>.<secret>`: the app id tells the server which app's store to look in (a
/// browser sends no Bmob headers), the secret is 256 random bits of which the store keeps only the SHA-256.
/// A reset link works once for 1 hour, a verification link once for 24 hours; asking again replaces the
/// earlier link. At most 1 mail a minute and 5 an hour go to one address (10010); one client address and one
/// app may ask for at most ``AccountLimits/emailRequestsPerClientPerHour`` and
/// ``AccountLimits/emailRequestsPerAppPerHour`` links an hour (10076).
///
/// A request for an address no user has is answered exactly as one for a known address, limits included, but
/// mails nothing (``AppSecurity/successOnUnknownEmail``, on by default), so that these routes do not tell who
/// has an account; an app that turns it off gets Bmob's 205 instead.
package struct EmailLinkService: Sendable {
    /// The time links are made, expire and are limited by.
    package let clock: ServerClock
    /// Where the mails go.
    package let provider: any MailProvider
    /// Where new passwords are hashed.
    package let hashing: ThreadPool
    /// Where delivery failures are logged.
    package let logger: Logger
    /// Links per client address and per app.
    package let limits: AccountLimits

    /// How long a password-reset link works.
    package static let resetLifetimeMilliseconds: Int64 = 3_600_000
    /// How long an email-verification link works.
    package static let verificationLifetimeMilliseconds: Int64 = 86_400_000
    /// Mails per address.
    package static let sendLimits: [RateLimit] = [.perMinute(1), .perHour(5)]
    /// The rate-event kind of mails sent.
    static let mailKind = "mail"

    /// A service mailing through `provider`.
    package init(
        clock: ServerClock, provider: any MailProvider, hashing: ThreadPool, logger: Logger,
        limits: AccountLimits = AccountLimits()
    ) {
        self.clock = clock
        self.provider = provider
        self.hashing = hashing
        self.logger = logger
        self.limits = limits
    }

    // MARK: - Sending links

    /// Mails a password-reset link to the user with this email address.
    ///
    /// - Parameter publicURL: the server's base URL, which the link starts with.
    /// - Throws: 204 without an address, 301 for an address over 256 bytes, 205 when no user has it and the app
    ///   says so (else nothing is mailed and the answer is the same as for a user's address), 10010 when the
    ///   address got too many mails, 10076 when the client address or the app asked for too many links, 500
    ///   when the mail cannot be sent.
    package func requestPasswordReset(email: String?, publicURL: String, context: AppContext) async throws {
        guard
            let (address, link) = try await makeLink(
                .passwordReset, email: email, path: "/1/resetPassword/", publicURL: publicURL, context: context)
        else { return }
        let app = context.app.name
        let body = """
            Hello,

            Someone asked to reset the password of the \(app) account with the email address \(address).
            To choose a new password, open this link within 1 hour:

            \(link)

            The link works once. If you did not ask for this, ignore this mail: your password stays as it is.
            """
        try await send(to: address, subject: "Reset your \(app) password", body: body, context: context)
    }

    /// Mails an email-verification link to the user with this email address.
    ///
    /// - Parameter publicURL: the server's base URL, which the link starts with.
    /// - Throws: as ``requestPasswordReset(email:publicURL:context:)``.
    package func requestEmailVerification(email: String?, publicURL: String, context: AppContext) async throws {
        guard
            let (address, link) = try await makeLink(
                .emailVerification, email: email, path: "/1/verifyEmail/", publicURL: publicURL, context: context)
        else { return }
        let app = context.app.name
        let body = """
            Hello,

            Please confirm that \(address) is your email address for \(app) by opening this link within 24 hours:

            \(link)

            If you did not sign up for \(app), ignore this mail.
            """
        try await send(to: address, subject: "Verify your email address for \(app)", body: body, context: context)
    }

    // MARK: - Following links

    /// Splits a link's token into the app id and the secret; `nil` when it is not `<applicationId>.<secret>`.
    package static func parseToken(_ text: String) -> (applicationId: String, secret: String)? {
        guard let dot = text.lastIndex(of: ".") else { return nil }
        let applicationId = String(text[..<dot])
        let secret = String(text[text.index(after: dot)...])
        guard !applicationId.isEmpty, secret.utf8.count == 64 else { return nil }
        return (applicationId, secret)
    }

    /// The token a link's secret names, if it is still valid for `purpose`.
    ///
    /// - Throws: 207 for an unknown, used or expired link.
    package func validToken(secret: String, purpose: StoredEmailToken.Purpose, context: AppContext) async throws
        -> StoredEmailToken
    {
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let now = clock.nowMilliseconds()
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                try Self.token(tokenHash, purpose: purpose, now: now, transaction: transaction)
            }
        }
    }

    /// Sets the password of a reset link's user, ends all of that user's sessions and forgets its failed
    /// logins; the link stops working.
    ///
    /// - Throws: 118 without a password, 301 for one over 1024 bytes, 207 for an unknown, used or expired link
    ///   (checked before the password is hashed).
    package func resetPassword(secret: String, password: String, context: AppContext) async throws {
        guard !password.isEmpty else { throw BmobAPIError(.missingParameter, "password is required") }
        guard password.utf8.count <= UserService.maximumPasswordBytes else {
            throw BmobAPIError(.validationFailed, "passwords are at most \(UserService.maximumPasswordBytes) bytes")
        }
        let tokenHash = SHA256.hex(Array(secret.utf8))
        // A made-up link costs no scrypt: the token is looked up before the password is hashed.
        _ = try await validToken(secret: secret, purpose: .passwordReset, context: context)
        let hash = try await hashing.run { _ in PasswordHash.make(password) }
        let now = clock.nowMilliseconds()
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                let token = try Self.token(tokenHash, purpose: .passwordReset, now: now, transaction: transaction)
                guard try transaction.fetch(className: UserService.className, objectId: token.userId) != nil else {
                    throw Self.invalidLink
                }
                try transaction.setCredential(userId: token.userId, hash: hash)
                try transaction.deleteSessions(userId: token.userId, except: nil)
                try transaction.deleteEmailTokens(userId: token.userId, purpose: .passwordReset)
                try UserService.clearLoginFailures(userId: token.userId, now: now, transaction: transaction)
            }
        }
        // The link's user is not known here without another read: every cached session goes.
        context.sessions.forgetAll()
    }

    /// Marks a verification link's user `emailVerified: true` (a journaled update of the user) and ends the link.
    ///
    /// - Returns: the verified address.
    /// - Throws: 207 for an unknown, used or expired link, or when the user's address changed since it was sent.
    package func verifyEmail(secret: String, context: AppContext) async throws -> String {
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let now = clock.nowMilliseconds()
        return try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                let token = try Self.token(tokenHash, purpose: .emailVerification, now: now, transaction: transaction)
                guard let user = try transaction.fetch(className: UserService.className, objectId: token.userId) else {
                    throw Self.invalidLink
                }
                guard user.fields["email"] == .string(token.email) else {
                    throw BmobAPIError(.invalidCode, "the user's email address changed since this link was sent")
                }
                if user.fields["emailVerified"] != .bool(true) {
                    _ = try ObjectService.update(
                        className: UserService.className, objectId: token.userId, body: ["emailVerified": true],
                        now: now, transaction: transaction)
                }
                try transaction.deleteEmailTokens(userId: token.userId, purpose: .emailVerification)
                return token.email
            }
        }
    }

    /// The 207 for a link that is unknown, used or expired.
    package static let invalidLink = BmobAPIError(.invalidCode, "this link is invalid, already used or expired")

    // MARK: - Helpers

    /// Records a new token for the user with `email` and returns the trimmed address and the link; `nil` when no
    /// user has the address and the app hides that (the request is limited and counted all the same).
    private func makeLink(
        _ purpose: StoredEmailToken.Purpose, email: String?, path: String, publicURL: String, context: AppContext
    ) async throws -> (String, String)? {
        guard let address = email?.trimmingSpaces(), !address.isEmpty else {
            throw BmobAPIError(.emailMissing, "email is required")
        }
        // No user can have a longer address; refusing it keeps made-up ones from filling the rate-event table.
        guard address.utf8.count <= UserService.maximumIdentityBytes else {
            throw BmobAPIError(.validationFailed, "email is longer than \(UserService.maximumIdentityBytes) bytes")
        }
        let secret = SecureRandom.hex(byteCount: 32)
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let now = clock.nowMilliseconds()
        let lifetime =
            purpose == .passwordReset ? Self.resetLifetimeMilliseconds : Self.verificationLifetimeMilliseconds
        let hideUnknown = context.app.security.successOnUnknownEmail
        let quota = limits.emailQuota
        let client = context.clientAddress
        let found = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> Bool in
                try transaction.pruneVerification(before: now - SmsCodes.retentionMilliseconds)
                let query = FindQuery(
                    className: UserService.className,
                    condition: .field(path: "email", constraints: [.equalTo(.string(address))]), limit: 1)
                let user = try transaction.find(query).first
                if user == nil, !hideUnknown {
                    throw BmobAPIError(.userNotFound, "no user has the email address '\(address)'")
                }
                // From here on a known and an unknown address are answered alike.
                let subject = "email:" + address.lowercased()
                let sent = try transaction.rateEvents(kind: Self.mailKind, subject: subject, since: now - 3_600_000)
                if let (limit, wait) = RateLimit.refusal(Self.sendLimits, events: sent, now: now) {
                    throw BmobAPIError(
                        .smsRateLimited,
                        "mail limit reached for \(address): at most \(limit.count) a \(limit.windowName); "
                            + "try again in \(RateLimit.describe(milliseconds: wait))")
                }
                try quota.admit(
                    client: client, now: now, transaction: transaction, code: .rateLimited, what: "emailed links")
                try transaction.recordRateEvent(kind: Self.mailKind, subject: subject, at: now)
                guard let user else { return false }
                try transaction.deleteEmailTokens(userId: user.objectId, purpose: purpose)
                try transaction.insertEmailToken(
                    StoredEmailToken(
                        tokenHash: tokenHash, purpose: purpose, userId: user.objectId, email: address, createdAt: now,
                        expiresAt: now + lifetime))
                return true
            }
        }
        guard found else { return nil }
        let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        return (address, base + path + context.app.applicationId + "." + secret)
    }

    private func send(to address: String, subject: String, body: String, context: AppContext) async throws {
        do {
            try await provider.send(to: address, subject: subject, body: body, app: context.app)
        } catch {
            logger.error("mail to \(address) failed: \(error)", metadata: ["app": context.app.applicationId])
            throw BmobAPIError(.internalError, "the email could not be sent", status: .internalServerError)
        }
    }

    private static func token(
        _ tokenHash: String, purpose: StoredEmailToken.Purpose, now: Int64, transaction: any StoreReadTransaction
    ) throws -> StoredEmailToken {
        guard let token = try transaction.emailToken(tokenHash: tokenHash), token.purpose == purpose,
            token.expiresAt > now
        else { throw invalidLink }
        return token
    }
}
