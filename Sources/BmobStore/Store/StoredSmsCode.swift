/// An SMS verification code as the store keeps it: the digits sent to a phone number, when they stop being
/// valid, whether they were used, and how the message's delivery went.
///
/// The ``smsId`` is what `request_sms_code` answers and `query_sms` takes.
package struct StoredSmsCode: Sendable, Equatable {
    /// How far the message got.
    package enum Delivery: String, Sendable {
        /// Handed to the SMS provider, no answer yet.
        case sending
        /// The provider accepted it.
        case sent
        /// The provider failed; the code cannot be used.
        case failed
    }

    /// The id the store gave the code (0 before it is inserted).
    package var smsId: Int64
    /// The phone number it was sent to, as the client wrote it.
    package var phone: String
    /// The digits.
    package var code: String
    /// The template the client asked for, if any.
    package var template: String?
    /// When it was made, milliseconds since 1970 UTC.
    package var createdAt: Int64
    /// When it stops being valid, milliseconds since 1970 UTC.
    package var expiresAt: Int64
    /// When it was used, if it was; a used code is never accepted again.
    package var usedAt: Int64?
    /// Wrong codes tried for this phone number while this one was valid.
    package var failedAttempts: Int
    /// How far the message got.
    package var delivery: Delivery

    /// Makes a code value.
    package init(
        smsId: Int64 = 0, phone: String, code: String, template: String?, createdAt: Int64, expiresAt: Int64,
        usedAt: Int64? = nil, failedAttempts: Int = 0, delivery: Delivery = .sending
    ) {
        self.smsId = smsId
        self.phone = phone
        self.code = code
        self.template = template
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.failedAttempts = failedAttempts
        self.delivery = delivery
    }
}
