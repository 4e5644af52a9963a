import BmobIO
import BmobCrypto
import BmobStore
package import BmobWire

/// Phone numbers with SMS codes: login, signup-or-login (`POST /1/users` and `POST /1/login` with
/// `mobilePhoneNumber` and `smsCode`, native `login_or_signup`, and `login`/`signup` with a code) and password
/// reset (`PUT /1/resetPasswordBySmsCode/<code>`, native `reset`/`phone_reset`).
///
/// The code is checked, used up and what it unlocks is written in one store transaction, so a code never
/// unlocks twice and a failure leaves it usable (except a wrong code, which counts against the number).
extension UserService {
    /// Logs in the user with this phone number after checking the code, or, when `allowSignUp` and no user
    /// has the number, creates one: `username` defaults to the number, `mobilePhoneVerified` is `true`, and
    /// `password`, `email` and other fields of `fields` are kept. Logging in also sets `mobilePhoneVerified`.
    ///
    /// - Parameters:
    ///   - mobilePhoneNumber: the number the code was sent to.
    ///   - smsCode: the code.
    ///   - fields: the rest of the request body (used only for a new user; `smsCode` is ignored).
    ///   - allowSignUp: whether an unknown number makes a new user (`false` for plain login).
    ///   - context: the caller.
    /// - Returns: the login, and whether the user is new.
    /// - Throws: 118 without a number or code, 301 for a malformed number, 207 for a wrong, used or expired
    ///   code, 101 when `allowSignUp` is `false` and no user has the number (the code stays usable), 202/203 when
    ///   a new user's username or email is taken, 111 for mistyped fields.
    package func logIn(
        mobilePhoneNumber: String?, smsCode: String?, fields: [String: JSONValue], allowSignUp: Bool,
        context: AppContext
    ) async throws -> (login: Login, created: Bool) {
        let phone = try SmsCodeService.phoneNumber(mobilePhoneNumber)
        guard let code = smsCode, !code.isEmpty else { throw BmobAPIError(.missingParameter, "smsCode is required") }
        var body = fields
        for name in [
            "smsCode", "sessionToken", "emailVerified", "mobilePhoneVerified", "objectId", "createdAt", "updatedAt",
            "authData",
        ] {
            body[name] = nil
        }
        for name in ["username", "email", "password"] {
            switch body[name] {
            case nil, .string?: continue
            default: throw BmobAPIError(.incorrectType, "invalid type for key '\(name)', expected 'String'")
            }
        }
        var password: String?
        if case .string(let text)? = body.removeValue(forKey: "password"), !text.isEmpty, allowSignUp {
            password = text
        }
        body["mobilePhoneNumber"] = .string(phone)
        if body["username"]?.stringValue?.isEmpty ?? true { body["username"] = .string(phone) }
        if let email = body["email"]?.stringValue, !email.isEmpty, !email.contains("@") {
            throw BmobAPIError(.validationFailed, "invalid email address: \(email)")
        }
        body["mobilePhoneVerified"] = true
        Self.addVerificationDefaults(to: &body)
        let newUser = body
        // Hash a new user's password only once a read showed that this is a signup that can succeed: a wrong
        // code, an existing user or a taken name costs no scrypt. The write below checks everything again.
        var hash: String?
        if let password {
            let checkedAt = clock.nowMilliseconds()
            let signsUp = try await ObjectService.mapStoreErrors {
                try await context.store.read { transaction -> Bool in
                    guard
                        try SmsCodes.match(phone: phone, code: code, client: nil, now: checkedAt, transaction: transaction)
                            != nil,
                        try Self.users(where: "mobilePhoneNumber", is: phone, limit: 1, transaction: transaction).isEmpty
                    else { return false }
                    try Self.checkUnique(newUser, except: nil, transaction: transaction)
                    return true
                }
            }
            if signsUp { hash = try await hashPassword(password) }
        }
        let wantsPassword = password != nil
        let passwordHash = hash
        let now = clock.nowMilliseconds()
        let (token, session) = makeSession(now: now)
        let ids = self.ids
        let outcome = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> PhoneOutcome in
                guard
                    let match = try SmsCodes.match(
                        phone: phone, code: code, client: nil, now: now, transaction: transaction)
                else {
                    try SmsCodes.recordMismatch(phone: phone, client: nil, now: now, transaction: transaction)
                    return .wrongCode
                }
                if let existing = try Self.users(where: "mobilePhoneNumber", is: phone, limit: 1, transaction: transaction).first {
                    try SmsCodes.consume(match, now: now, transaction: transaction)
                    var user = existing
                    if user.fields["mobilePhoneVerified"] != .bool(true) {
                        user = try ObjectService.update(
                            className: Self.className, objectId: user.objectId, body: ["mobilePhoneVerified": true],
                            now: now, transaction: transaction)
                    }
                    try transaction.insertSession(session(user.objectId))
                    return .loggedIn(user, created: false)
                }
                guard allowSignUp else { return .noUser }
                // The read said this was a login (the user has since gone): no password was hashed to set.
                guard passwordHash != nil || !wantsPassword else { return .retry }
                try SmsCodes.consume(match, now: now, transaction: transaction)
                try Self.checkUnique(newUser, except: nil, transaction: transaction)
                let user = try ObjectService.insert(
                    className: Self.className, body: newUser, now: now, ids: ids,
                    security: context.app.security, transaction: transaction)
                if let passwordHash { try transaction.setCredential(userId: user.objectId, hash: passwordHash) }
                try transaction.insertSession(session(user.objectId))
                return .loggedIn(user, created: true)
            }
        }
        switch outcome {
        case .wrongCode: throw SmsCodes.invalidCode
        case .noUser: throw BmobAPIError(.objectNotFound, "no user has the mobile phone number '\(phone)'")
        case .loggedIn(let user, let created): return (Login(user: user, sessionToken: token), created)
        case .retry: throw Self.changedMeanwhile
        case .done: throw BmobAPIError(.internalError, "unexpected outcome", status: .internalServerError)
        }
    }

    /// Sets a new password for the user whose number a code was sent to, ends all of that user's sessions and
    /// forgets its failed logins.
    ///
    /// - Parameters:
    ///   - smsCode: the code; alone it names the number (codes in use are unique per app).
    ///   - password: the new password.
    ///   - mobilePhoneNumber: the number, when the client sends it (then the code must be that number's).
    ///   - client: the client's address, which wrong codes without a number count against.
    /// - Throws: 118 without a code or password, 301 for a password over 1024 bytes, 207 for a wrong, used or
    ///   expired code, 10076 after too many wrong codes without a number from one client, 205 when no user has
    ///   the number (the code stays usable).
    package func resetPassword(
        smsCode: String?, password: String?, mobilePhoneNumber: String?, client: String?, context: AppContext
    ) async throws {
        guard let code = smsCode, !code.isEmpty else { throw BmobAPIError(.missingParameter, "smsCode is required") }
        guard let password, !password.isEmpty else { throw BmobAPIError(.missingParameter, "password is required") }
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw BmobAPIError(.validationFailed, "passwords are at most \(Self.maximumPasswordBytes) bytes")
        }
        let phone = try mobilePhoneNumber.flatMap { $0.isEmpty ? nil : try SmsCodeService.phoneNumber($0) }
        // A wrong code costs no scrypt: the new password is hashed only after a read found the code valid.
        let checkedAt = clock.nowMilliseconds()
        let valid = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                try SmsCodes.match(phone: phone, code: code, client: client, now: checkedAt, transaction: transaction)
                    != nil
            }
        }
        let hash = valid ? try await hashPassword(password) : nil
        let now = clock.nowMilliseconds()
        let outcome = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> PhoneOutcome in
                guard
                    let match = try SmsCodes.match(
                        phone: phone, code: code, client: client, now: now, transaction: transaction)
                else {
                    try SmsCodes.recordMismatch(phone: phone, client: client, now: now, transaction: transaction)
                    return .wrongCode
                }
                guard let hash else { return .retry }
                guard let user = try Self.users(where: "mobilePhoneNumber", is: match.phone, limit: 1, transaction: transaction).first else { return .noUser }
                try SmsCodes.consume(match, now: now, transaction: transaction)
                try transaction.setCredential(userId: user.objectId, hash: hash)
                try transaction.deleteSessions(userId: user.objectId, except: nil)
                try Self.clearLoginFailures(userId: user.objectId, now: now, transaction: transaction)
                return .done
            }
        }
        if case .done = outcome { context.sessions.forgetAll() }  // the code's user is not known here
        switch outcome {
        case .wrongCode: throw SmsCodes.invalidCode
        case .noUser: throw BmobAPIError(.userNotFound, "no user has the mobile phone number of this code")
        case .retry: throw Self.changedMeanwhile
        case .loggedIn, .done: return
        }
    }

    /// The answer when a code became valid, or a user went away, between the check before hashing and the
    /// write: rare, and harmless to try again.
    private static let changedMeanwhile = BmobAPIError(
        .internalError, "the account changed while this request ran; try again", status: .serviceUnavailable)

    /// What a code transaction ended with; errors that must not roll back a counted wrong code are returned,
    /// not thrown.
    private enum PhoneOutcome: Sendable {
        case wrongCode
        case noUser
        case loggedIn(StoredObject, created: Bool)
        case done
        /// The read before hashing and the write disagree (the store changed in between).
        case retry
    }
}
