import BmobCore
import BmobWire

/// SMS verification codes: ask the server to text a code to a phone number, then use the code to log in or
/// sign up (``BmobUser/signUpOrLogin(mobilePhoneNumber:smsCode:)``), to reset a password
/// (``BmobUser/resetPassword(smsCode:newPassword:)``), or check it yourself
/// (``verifySmsCode(mobilePhoneNumber:smsCode:)``).
///
/// ```swift
/// try await BmobSMS.requestSmsCode(mobilePhoneNumber: "13800138000")
/// let user = try await BmobUser.signUpOrLogin(mobilePhoneNumber: "13800138000", smsCode: "123456")
/// ```
///
/// A code is 6 digits, valid for 5 minutes and used once. The server sends at most 1 code a minute, 5 an hour
/// and 10 a day to one number; beyond that it answers ``BmobError/serverError(code:message:)`` with 10010.
public enum BmobSMS {
    /// Asks the server to send a verification code to a phone number.
    ///
    /// - Parameters:
    ///   - mobilePhoneNumber: the number, digits with an optional leading `+`.
    ///   - template: the name of an SMS template configured on the server; `nil` for the default text.
    /// - Returns: the message's `smsId`, which the server's `query_sms` knows; ignore it if you do not need it.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty number;
    ///   ``BmobError/serverError(code:message:)`` with 10010 when the number got too many codes, 301 for a
    ///   malformed number; network errors.
    @discardableResult
    public static func requestSmsCode(mobilePhoneNumber: String, template: String? = nil) async throws -> Int {
        guard !mobilePhoneNumber.isEmpty else {
            throw BmobError.invalidParameter(reason: "mobilePhoneNumber is required")
        }
        var data: [String: JSONValue] = ["mobilePhoneNumber": .string(mobilePhoneNumber)]
        if let template, !template.isEmpty { data["template"] = .string(template) }
        let answer = try await BmobClient.shared.call(
            "request_sms_code", ["mobilePhoneNumber": .string(mobilePhoneNumber), "data": .object(data)])
        guard let smsId = answer["smsId"]?.int64Value else { throw BmobError.jsonParsingFailed }
        return Int(smsId)
    }

    /// Checks a code sent to a number. A correct code is used up: it cannot log in or reset a password
    /// afterwards.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty number or code;
    ///   ``BmobError/serverError(code:message:)`` with 207 for a wrong, used or expired code; network errors.
    public static func verifySmsCode(mobilePhoneNumber: String, smsCode: String) async throws {
        guard !mobilePhoneNumber.isEmpty, !smsCode.isEmpty else {
            throw BmobError.invalidParameter(reason: "mobilePhoneNumber and smsCode are required")
        }
        let fields: [String: JSONValue] = [
            "mobilePhoneNumber": .string(mobilePhoneNumber), "smsCode": .string(smsCode),
        ]
        let answer = try await BmobClient.shared.call(
            "verify_sms_code", fields.merging(["data": .object(fields)]) { $1 })
        guard answer["msg"]?.stringValue == "ok" else { throw BmobError.jsonParsingFailed }
    }
}
