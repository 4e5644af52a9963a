import BmobCore
import BmobWire

/// Logging in, signing up and resetting a password with a phone number and an SMS code from
/// ``BmobSMS/requestSmsCode(mobilePhoneNumber:template:)``.
extension BmobUser {
    /// Logs in the user with this phone number; the user becomes ``current``.
    ///
    /// Unlike ``signUpOrLogin(mobilePhoneNumber:smsCode:)`` it never creates a user. A wrong code counts
    /// against the number (5 wrong codes make its codes useless), and the code is used up by a successful login.
    ///
    /// - Throws: ``BmobError/authenticationFailed`` for a wrong, used or expired code or when no user has the
    ///   number (the code then stays usable); ``BmobError/invalidParameter(reason:)`` for an empty number or
    ///   code; network and other server errors.
    public static func login(mobilePhoneNumber: String, smsCode: String) async throws -> BmobUser {
        try await phoneLogin(route: "login", mobilePhoneNumber: mobilePhoneNumber, smsCode: smsCode)
    }

    /// Logs in the user with this phone number, or signs one up when none has it (username = the number,
    /// `mobilePhoneVerified` true, no password); the user becomes ``current``.
    ///
    /// - Throws: ``BmobError/authenticationFailed`` for a wrong, used or expired code;
    ///   ``BmobError/invalidParameter(reason:)`` for an empty number or code; network and other server errors
    ///   (202 when another user already has the number as username).
    public static func signUpOrLogin(mobilePhoneNumber: String, smsCode: String) async throws -> BmobUser {
        try await phoneLogin(route: "login_or_signup", mobilePhoneNumber: mobilePhoneNumber, smsCode: smsCode)
    }

    /// Sets a new password with an SMS code sent to the user's phone number, and ends all of the user's
    /// sessions on the server (log in again with the new password).
    ///
    /// The server finds the number from the code alone; when ``current`` has a `mobilePhoneNumber` it is sent
    /// along, and the code must then belong to it. To reset the password of another number, use
    /// ``resetPassword(mobilePhoneNumber:smsCode:newPassword:)``.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty code or password;
    ///   ``BmobError/serverError(code:message:)`` with 207 for a wrong, used or expired code, 205 when no user
    ///   has the number; network errors.
    public static func resetPassword(smsCode: String, newPassword: String) async throws {
        try await reset(mobilePhoneNumber: current?.mobilePhoneNumber, smsCode: smsCode, newPassword: newPassword)
    }

    /// Sets a new password for the user with this phone number with an SMS code sent to it, and ends all of
    /// the user's sessions on the server.
    ///
    /// - Throws: as ``resetPassword(smsCode:newPassword:)``.
    public static func resetPassword(mobilePhoneNumber: String, smsCode: String, newPassword: String) async throws {
        guard !mobilePhoneNumber.isEmpty else {
            throw BmobError.invalidParameter(reason: "mobilePhoneNumber is required")
        }
        try await reset(mobilePhoneNumber: mobilePhoneNumber, smsCode: smsCode, newPassword: newPassword)
    }

    private static func reset(mobilePhoneNumber: String?, smsCode: String, newPassword: String) async throws {
        guard !smsCode.isEmpty, !newPassword.isEmpty else {
            throw BmobError.invalidParameter(reason: "smsCode and newPassword are required")
        }
        var data: [String: JSONValue] = ["smsCode": .string(smsCode), "password": .string(newPassword)]
        if let mobilePhoneNumber, !mobilePhoneNumber.isEmpty { data["mobilePhoneNumber"] = .string(mobilePhoneNumber) }
        let answer = try await BmobClient.shared.call(
            "phone_reset", ["c": .string(userClassName), "data": .object(data)])
        guard answer["msg"]?.stringValue == "ok" else { throw BmobError.jsonParsingFailed }
    }

    private static func phoneLogin(route: String, mobilePhoneNumber: String, smsCode: String) async throws -> BmobUser {
        guard !mobilePhoneNumber.isEmpty, !smsCode.isEmpty else {
            throw BmobError.invalidParameter(reason: "mobilePhoneNumber and smsCode are required")
        }
        let answer: JSONValue
        do {
            answer = try await BmobClient.shared.call(
                route,
                [
                    "c": .string(userClassName),
                    "data": ["mobilePhoneNumber": .string(mobilePhoneNumber), "smsCode": .string(smsCode)],
                ])
        } catch .objectNotFound {
            throw BmobError.authenticationFailed
        } catch .serverError(let code, _) where code == BmobErrorCode.invalidCode.rawValue {
            throw BmobError.authenticationFailed
        }
        return try loggedIn(answer)
    }
}
