/// Why an SMTP delivery failed: the step, and the server's reply when it sent one. Safe to log (it never holds
/// the password or the message).
package struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words.
    package var message: String
    /// The server's reply code, when the failure is a refusal (`535` for bad credentials, say).
    package var replyCode: Int?

    /// An error with a message and, for refusals, the reply code.
    package init(_ message: String, replyCode: Int? = nil) {
        self.message = message
        self.replyCode = replyCode
    }

    package var description: String {
        replyCode.map { "SMTP \($0): \(message)" } ?? "SMTP: \(message)"
    }
}
