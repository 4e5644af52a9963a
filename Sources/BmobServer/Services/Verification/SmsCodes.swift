import BmobCrypto
package import BmobStore
import BmobWire

/// The rules of SMS verification codes, as helpers that run inside a store transaction, so that a check, the
/// code's use and what it unlocks (a login, a signup, a new password) commit together.
///
/// - A code is 6 random digits, valid for 5 minutes, and used once. No two unused, unexpired codes of an app
///   share digits, so a code alone names its phone number (`PUT /1/resetPasswordBySmsCode/<code>` and the
///   native `reset` send no number).
/// - Per phone number at most 1 code a minute, 5 an hour and 10 a day (Bmob's limits; refused with 10010), and
///   per client address and per app as many an hour as ``AccountLimits/smsCodesPerClientPerHour`` and
///   ``AccountLimits/smsCodesPerAppPerHour`` allow (also 10010), so that nobody can send codes to many
///   numbers at the app's expense.
/// - 5 wrong codes for a number burn that number's valid codes (207 after that). A check without a number
///   counts wrong codes per client: 20 in 15 minutes lock that client out of code-only checks (10076).
package enum SmsCodes {
    /// Digits in a code.
    package static let length = 6
    /// How long a code is valid.
    package static let lifetimeMilliseconds: Int64 = 5 * 60_000
    /// Wrong codes for a number before its valid codes stop being accepted.
    package static let maxFailedAttempts = 5
    /// Codes sent per phone number.
    package static let sendLimits: [RateLimit] = [.perMinute(1), .perHour(5), .perDay(10)]
    /// Wrong codes per client in checks that name no phone number.
    package static let unboundFailureLimit = RateLimit(
        count: 20, windowMilliseconds: 15 * 60_000, windowName: "15 minutes")
    /// The rate-event kind of wrong codes checked without a phone number.
    static let unboundFailureKind = "smsCode"
    /// How long codes, tokens and events are kept (the longest window).
    static let retentionMilliseconds: Int64 = 86_400_000

    /// Whether `text` looks like a phone number: an optional `+`, then 5 to 20 digits.
    package static func isPhoneNumber(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.hasPrefix("+") { digits = digits.dropFirst() }
        return (5...20).contains(digits.count) && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Makes and records a new code for `phone`, after checking the sending limits: the number's, then the
    /// client address's and the app's (`quota`, counted only when the number's limits allow the code).
    ///
    /// - Returns: the code with its `smsId`, delivery `sending`.
    /// - Throws: 10010 when a limit refuses it.
    package static func issue(
        phone: String, template: String?, client: String?, quota: RequestQuota, now: Int64,
        transaction: any StoreWriteTransaction
    ) throws -> StoredSmsCode {
        try transaction.pruneVerification(before: now - retentionMilliseconds)
        let sent = try transaction.smsCodes(phone: phone, since: now - retentionMilliseconds).map(\.createdAt)
        if let (limit, wait) = RateLimit.refusal(sendLimits, events: sent, now: now) {
            throw BmobAPIError(
                .smsRateLimited,
                "SMS limit reached for \(phone): at most \(limit.count) code\(limit.count == 1 ? "" : "s") a "
                    + "\(limit.windowName); try again in \(RateLimit.describe(milliseconds: wait))")
        }
        try quota.admit(client: client, now: now, transaction: transaction, code: .smsRateLimited, what: "SMS codes")
        var digits = randomDigits()
        // Keep the digits of valid codes unique, so that a code alone finds its number.
        var tries = 0
        while tries < 20, try !transaction.activeSmsCodes(code: digits, now: now).isEmpty {
            digits = randomDigits()
            tries += 1
        }
        var code = StoredSmsCode(
            phone: phone, code: digits, template: template, createdAt: now, expiresAt: now + lifetimeMilliseconds)
        code.smsId = try transaction.insertSmsCode(code)
        return code
    }

    /// The valid code `code` names: of `phone` when given, else of any number. Nothing is changed.
    ///
    /// - Throws: 10076 for a check without a number from a client that tried too many wrong codes.
    package static func match(
        phone: String?, code: String, client: String?, now: Int64, transaction: any StoreReadTransaction
    ) throws -> StoredSmsCode? {
        let wellFormed = code.utf8.count == length && code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        guard let phone else {
            let failures = try transaction.rateEvents(
                kind: unboundFailureKind, subject: clientSubject(client),
                since: now - unboundFailureLimit.windowMilliseconds)
            if let wait = unboundFailureLimit.wait(events: failures, now: now) {
                throw BmobAPIError(
                    .tooManyFailedAttempts,
                    "too many wrong SMS codes from this client; try again in \(RateLimit.describe(milliseconds: wait))")
            }
            guard wellFormed else { return nil }
            return try transaction.activeSmsCodes(code: code, now: now).first { isUsable($0, now: now) }
        }
        guard wellFormed else { return nil }
        return try usableCodes(phone: phone, now: now, transaction: transaction).first {
            ConstantTime.equals(Array($0.code.utf8), Array(code.utf8))
        }
    }

    /// Marks a matched code used: it is never accepted again.
    package static func consume(_ code: StoredSmsCode, now: Int64, transaction: any StoreWriteTransaction) throws {
        var used = code
        used.usedAt = now
        try transaction.updateSmsCode(used)
    }

    /// Counts a wrong code: against the number's valid codes when a number was given, else against the client.
    package static func recordMismatch(
        phone: String?, client: String?, now: Int64, transaction: any StoreWriteTransaction
    ) throws {
        guard let phone else {
            try transaction.recordRateEvent(kind: unboundFailureKind, subject: clientSubject(client), at: now)
            return
        }
        for var code in try usableCodes(phone: phone, now: now, transaction: transaction) {
            code.failedAttempts += 1
            try transaction.updateSmsCode(code)
        }
    }

    /// The 207 answered for a wrong, used or expired code.
    package static let invalidCode = BmobAPIError(.invalidCode, "invalid SMS code: wrong, already used or expired")

    private static func usableCodes(phone: String, now: Int64, transaction: any StoreReadTransaction) throws
        -> [StoredSmsCode]
    {
        try transaction.smsCodes(phone: phone, since: now - lifetimeMilliseconds).filter { isUsable($0, now: now) }
    }

    private static func isUsable(_ code: StoredSmsCode, now: Int64) -> Bool {
        code.usedAt == nil && code.expiresAt > now && code.failedAttempts < maxFailedAttempts
            && code.delivery != .failed
    }

    private static func clientSubject(_ client: String?) -> String {
        client.map { "client:\($0)" } ?? "client:unknown"
    }

    /// `length` uniformly random decimal digits.
    private static func randomDigits() -> String {
        var limit: UInt32 = 1
        for _ in 0..<length { limit *= 10 }
        // Reject the top partial block so every value is equally likely.
        let ceiling = UInt32.max - UInt32.max % limit
        while true {
            let bytes = SecureRandom.bytes(4)
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard value < ceiling else { continue }
            let text = String(value % limit)
            return String(repeating: "0", count: length - text.count) + text
        }
    }
}
