import BmobCore
import BmobWire

/// Emailed links: verifying a user's email address and resetting a forgotten password.
extension BmobUser {
    /// Asks the server to mail a verification link to the user with this email address. When the user opens
    /// it, the server sets the user's `emailVerified` to `true`; read it with ``emailVerified`` after fetching
    /// the user again (or logging in).
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty address;
    ///   ``BmobError/serverError(code:message:)`` with 205 when no user has the address, 10010 when it got too
    ///   many mails (1 a minute, 5 an hour); network errors.
    public static func requestEmailVerify(_ email: String) async throws {
        guard !email.isEmpty else { throw BmobError.invalidParameter(reason: "email is required") }
        let answer = try await BmobClient.shared.call(
            "email_verify", ["c": .string(userClassName), "data": ["email": .string(email)]])
        guard answer["msg"]?.stringValue == "ok" else { throw BmobError.jsonParsingFailed }
    }

    /// Asks the server to mail a password-reset link to the user with this email address. The link opens a
    /// page where the user picks a new password; it works once, for one hour, and ends the user's sessions.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty address;
    ///   ``BmobError/serverError(code:message:)`` with 205 when no user has the address, 10010 when it got too
    ///   many mails; network errors.
    public static func requestPasswordReset(email: String) async throws {
        guard !email.isEmpty else { throw BmobError.invalidParameter(reason: "email is required") }
        let answer = try await BmobClient.shared.call(
            "reset", ["c": .string(userClassName), "data": ["email": .string(email)]])
        guard answer["msg"]?.stringValue == "ok" else { throw BmobError.jsonParsingFailed }
    }
}
