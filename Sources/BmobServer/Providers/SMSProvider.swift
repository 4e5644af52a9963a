/// Delivers verification codes by SMS.
///
/// The server ships one implementation, ``OutboxProvider``, which writes each message to a file instead of
/// sending it: there is no SMS gateway here. To send real messages, write a conformer that calls your gateway
/// (most take a template id and the code as a parameter) and give it to
/// ``Server/start(configuration:clock:logger:providers:)`` in ``MessageProviders/sms``:
///
/// ```swift
/// struct GatewaySMS: SMSProvider {
///     func send(to phone: String, code: String, template: String?, app: App) async throws {
///         // POST the phone number, the template and the code to the gateway; throw when it refuses.
///     }
/// }
/// var providers = MessageProviders.standard(configuration: configuration, logger: logger, pool: pool, clock: .system)
/// providers.sms = GatewaySMS()
/// ```
///
/// Rate limits, code generation, expiry and single use are the server's job (``SmsCodeService``); a provider
/// only delivers. It is called from request handlers, so it must not block the calling thread: do blocking
/// work on a thread pool.
package protocol SMSProvider: Sendable {
    /// Sends `code` to `phone`.
    ///
    /// - Parameters:
    ///   - phone: the number as the client wrote it (`13800138000`, `+8613800138000`).
    ///   - code: the 6 digits to deliver.
    ///   - template: the SMS template the client named (`template` of `requestSmsCode`), or `nil` for the default.
    ///   - app: the app the code is for (its name can sign the message).
    /// - Throws: any error when the message could not be handed over; the client then gets an internal error
    ///   and the code is marked failed (`query_sms` answers `FAIL`).
    func send(to phone: String, code: String, template: String?, app: App) async throws
}
