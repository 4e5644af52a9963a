import BmobStore
package import BmobWire

/// SMS verification codes: sending one (`POST /1/requestSmsCode`, native `request_sms_code`), checking one
/// (`POST /1/verifySmsCode[/<code>]`, `verify_sms_code`) and asking how its delivery went (`GET /1/querySms/<id>`,
/// `query_sms`). The rules (length, lifetime, limits) are ``SmsCodes``'; logging in, signing up and resetting a
/// password with a code are ``UserService``'s.
package struct SmsCodeService: Sendable {
    /// The time codes are made, expire and are limited by.
    package let clock: ServerClock
    /// Where codes are sent.
    package let provider: any SMSProvider
    /// Where delivery failures are logged.
    package let logger: Logger
    /// Codes per client address and per app.
    package let limits: AccountLimits

    /// A service sending through `provider`.
    package init(clock: ServerClock, provider: any SMSProvider, logger: Logger, limits: AccountLimits = AccountLimits()) {
        self.clock = clock
        self.provider = provider
        self.logger = logger
        self.limits = limits
    }

    /// Makes a code for a phone number and sends it.
    ///
    /// - Parameters:
    ///   - mobilePhoneNumber: the number (`+` and 5 to 20 digits).
    ///   - template: the SMS template the client named; `nil` or empty for the default.
    /// - Returns: the code's `smsId`.
    /// - Throws: 118 without a number, 301 for a malformed one, 10010 when a sending limit refuses it (the
    ///   number's, the client address's or the app's), 500 when the provider fails (the code is then marked
    ///   failed).
    package func requestCode(mobilePhoneNumber: String?, template: String?, context: AppContext) async throws -> Int64 {
        let phone = try Self.phoneNumber(mobilePhoneNumber)
        let template = template.flatMap { $0.isEmpty ? nil : $0 }
        let now = clock.nowMilliseconds()
        let client = context.clientAddress
        let quota = limits.smsQuota
        var code = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try SmsCodes.issue(
                    phone: phone, template: template, client: client, quota: quota, now: now, transaction: transaction)
            }
        }
        do {
            try await provider.send(to: phone, code: code.code, template: template, app: context.app)
            code.delivery = .sent
        } catch {
            logger.error("SMS to \(phone) failed: \(error)", metadata: ["app": context.app.applicationId])
            code.delivery = .failed
        }
        let delivered = code
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                try transaction.updateSmsCode(delivered)
            }
        }
        guard delivered.delivery == .sent else {
            throw BmobAPIError(.internalError, "the SMS could not be sent", status: .internalServerError)
        }
        return delivered.smsId
    }

    /// Checks a code sent to a number and uses it up.
    ///
    /// - Throws: 118 without a number or a code, 207 for a wrong, used or expired code.
    package func verify(mobilePhoneNumber: String?, smsCode: String?, context: AppContext) async throws {
        let phone = try Self.phoneNumber(mobilePhoneNumber)
        guard let code = smsCode, !code.isEmpty else {
            throw BmobAPIError(.missingParameter, "smsCode is required")
        }
        let now = clock.nowMilliseconds()
        let accepted = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction -> Bool in
                guard
                    let match = try SmsCodes.match(
                        phone: phone, code: code, client: nil, now: now, transaction: transaction)
                else {
                    try SmsCodes.recordMismatch(phone: phone, client: nil, now: now, transaction: transaction)
                    return false
                }
                try SmsCodes.consume(match, now: now, transaction: transaction)
                return true
            }
        }
        guard accepted else { throw SmsCodes.invalidCode }
    }

    /// How a code's delivery went, in Bmob's shape: `{"sms_state":"SENDING"|"SUCCESS"|"FAIL","verify_state":bool}`
    /// (`verify_state` is whether the code was used).
    ///
    /// - Throws: 101 for an unknown `smsId`.
    package func status(smsId: Int64, context: AppContext) async throws -> JSONValue {
        let code = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in try transaction.smsCode(smsId: smsId) }
        }
        guard let code else { throw BmobAPIError(.objectNotFound, "no SMS with smsId \(smsId)") }
        let state: String
        switch code.delivery {
        case .sending: state = "SENDING"
        case .sent: state = "SUCCESS"
        case .failed: state = "FAIL"
        }
        return ["sms_state": .string(state), "verify_state": .bool(code.usedAt != nil)]
    }

    /// The trimmed number.
    ///
    /// - Throws: 118 when missing, 301 when it is not `+` and 5 to 20 digits.
    package static func phoneNumber(_ text: String?) throws -> String {
        guard let text = text?.trimmingSpaces(), !text.isEmpty else {
            throw BmobAPIError(.missingParameter, "mobilePhoneNumber is required")
        }
        guard SmsCodes.isPhoneNumber(text) else {
            throw BmobAPIError(
                .validationFailed, "invalid mobilePhoneNumber '\(text)': expected digits, optionally after '+'")
        }
        return text
    }
}
