/// Delivers the server's emails: password-reset and email-verification links.
///
/// Two implementations ship: ``OutboxProvider`` (the default: each mail is appended to a file in the data
/// folder) and ``SMTPMailProvider`` (used when the `smtpHost` setting is set). Tests can pass their own through
/// ``MessageProviders``.
package protocol MailProvider: Sendable {
    /// Sends a plain-text mail.
    ///
    /// - Parameters:
    ///   - address: the recipient.
    ///   - subject: the subject line (may hold any Unicode).
    ///   - body: the text, lines separated by `\n`.
    ///   - app: the app the mail is about.
    /// - Throws: any error when the mail could not be handed over; the client then gets an internal error.
    func send(to address: String, subject: String, body: String, app: App) async throws
}
