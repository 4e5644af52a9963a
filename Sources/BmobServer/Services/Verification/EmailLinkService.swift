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
/// earlier link. At most 1 mail a minute and 5 an hour go to one address (10010).
package struct EmailLinkService: Sendable {
    /// The time links are made, expire and are limited by.
    package let clock: ServerClock
    /// Where the mails go.
    package let provider: any MailProvider
    /// Where new passwords are hashed.
    package let hashing: ThreadPool
    /// Where delivery failures are logged.
    package let logger: Logger

    /// How long a password-reset link works.
    package static let resetLifetimeMilliseconds: Int64 = 3_600_000
    /// How long an email-verification link works.
    package static let verificationLifetimeMilliseconds: Int64 = 86_400_000
    /// Mails per address.
    package static let sendLimits: [RateLimit] = [.perMinute(1), .perHour(5)]
    /// The rate-event kind of mails sent.
    static let mailKind = "mail"

    /// A service mailing through `provider`.
    package init(clock: ServerClock, provider: any MailProvider, hashing: ThreadPool, logger: Logger) {
        self.clock = clock
        self.provider = provider
        self.hashing = hashing
        self.logger = logger
    }

    // MARK: - Sending links

    /// Mails a password-reset link to the user with this email address.
    ///
    /// - Parameter publicURL: the server's base URL, which the link starts with.
    /// - Throws: 204 without an address, 205 when no user has it, 10010 when the address got too many mails,
    ///   500 when the mail cannot be sent.
    package func requestPasswordReset(email: String?, publicURL: String, context: AppContext) async throws {
        let (address, link) = try await makeLink(
            .passwordReset, email: email, path: "/1/resetPassword/", publicURL: publicURL, context: context)
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
    /// - Throws: 204 without an address, 205 when no user has it, 10010 when the address got too many mails,
    ///   500 when the mail cannot be sent.
    package func requestEmailVerification(email: String?, publicURL: String, context: AppContext) async throws {
        let (address, link) = try await makeLink(
            .emailVerification, email: email, path: "/1/verifyEmail/", publicURL: publicURL, context: context)
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
    /// - Throws: 118 without a password, 207 for an unknown, used or expired link.
    package func resetPassword(secret: String, password: String, context: AppContext) async throws {
        guard !password.isEmpty else { throw BmobAPIError(.missingParameter, "password is required") }
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let hash = try await hashing.run { _ in PasswordHash.make(password) }
        let now = clock.nowMilliseconds()
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                let token = try Self.token(tokenHash, purpose: .passwordReset, now: now, transaction: transaction)
                guard try transaction.fetch(className: UserService.className, objectId: token.userId) != nil else {
                    throw Self.invalidLink
                }
                try transaction.setCredential(userId: token.userId, hash: hash)
                try transaction.deleteSessions(userId: token.userId, except: nil)
                try transaction.deleteEmailTokens(userId: token.userId, purpose: .passwordReset)
                try UserService.clearLoginFailures(userId: token.userId, transaction: transaction)
            }
        }
    }

    /// Marks a verification link's user `emailVerified: true` (a journaled update of the user) and ends the link.
    ///
    /// - Returns: the verified address.
    /// - Throws: 207 for an unknown, used or expired link, or when the user's address changed since it was sent.
    package func verifyEmail(secret: String, context: AppContext) async throws -> String {
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let now = clock.nowMilliseconds()
        return try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
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

    /// Records a new token for the user with `email` and returns the trimmed address and the link.
    private func makeLink(
        _ purpose: StoredEmailToken.Purpose, email: String?, path: String, publicURL: String, context: AppContext
    ) async throws -> (String, String) {
        guard let address = email?.trimmingSpaces(), !address.isEmpty else {
            throw BmobAPIError(.emailMissing, "email is required")
        }
        let secret = SecureRandom.hex(byteCount: 32)
        let tokenHash = SHA256.hex(Array(secret.utf8))
        let now = clock.nowMilliseconds()
        let lifetime =
            purpose == .passwordReset ? Self.resetLifetimeMilliseconds : Self.verificationLifetimeMilliseconds
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try transaction.pruneVerification(before: now - SmsCodes.retentionMilliseconds)
                let query = FindQuery(
                    className: UserService.className,
                    condition: .field(path: "email", constraints: [.equalTo(.string(address))]), limit: 1)
                guard let user = try transaction.find(query).first else {
                    throw BmobAPIError(.userNotFound, "no user has the email address '\(address)'")
                }
                let subject = "email:" + address.lowercased()
                let sent = try transaction.rateEvents(kind: Self.mailKind, subject: subject, since: now - 3_600_000)
                if let (limit, wait) = RateLimit.refusal(Self.sendLimits, events: sent, now: now) {
                    throw BmobAPIError(
                        .smsRateLimited,
                        "mail limit reached for \(address): at most \(limit.count) a \(limit.windowName); "
                            + "try again in \(RateLimit.describe(milliseconds: wait))")
                }
                try transaction.recordRateEvent(kind: Self.mailKind, subject: subject, at: now)
                try transaction.deleteEmailTokens(userId: user.objectId, purpose: purpose)
                try transaction.insertEmailToken(
                    StoredEmailToken(
                        tokenHash: tokenHash, purpose: purpose, userId: user.objectId, email: address, createdAt: now,
                        expiresAt: now + lifetime))
            }
        }
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
