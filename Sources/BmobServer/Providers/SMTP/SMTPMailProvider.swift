import BmobIO

/// Sends mail through an SMTP server (RFC 5321) over plain TCP, authenticating with `AUTH PLAIN` when a user
/// is configured. Chosen by ``MessageProviders/standard(configuration:logger:pool:clock:)`` when the `smtpHost`
/// setting is set; `smtpPort`, `smtpUser`, `smtpPassword` and `mailFrom` complete it.
///
/// **No TLS.** Neither implicit TLS (port 465) nor `STARTTLS` is spoken, so the password and the mail cross the
/// network in the clear: point it at a relay on the same host or a trusted network (a local Postfix, an
/// SMTP sidecar that speaks TLS onward), not at a public provider across the internet.
///
/// Each delivery opens a connection on the provider's own two-thread pool (so a slow server never holds the
/// threads that hash passwords), waits at most ``timeoutSeconds`` per step, and closes it.
package struct SMTPMailProvider: MailProvider {
    /// The server's host name or address.
    package let host: String
    /// The server's port (25 or 587 for plain SMTP).
    package let port: Int
    /// The user for `AUTH PLAIN`; `nil` sends without authenticating.
    package let username: String?
    /// The password for ``username``.
    package let password: String?
    /// The sender address (envelope and `From`).
    package let from: String
    /// Seconds each network step may take.
    package let timeoutSeconds: Double
    private let clock: ServerClock
    private let logger: Logger
    private let pool: ThreadPool

    /// A provider for one SMTP server.
    package init(
        host: String, port: Int, username: String?, password: String?, from: String, clock: ServerClock,
        logger: Logger, timeoutSeconds: Double = 30
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.from = from
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
        self.logger = logger
        self.pool = ThreadPool(threadCount: 2, name: "bmob-smtp")
    }

    /// Delivers one mail.
    ///
    /// - Throws: ``SMTPError`` when an address holds a line break or angle bracket (header injection), the
    ///   server cannot be reached, or it refuses a step.
    package func send(to address: String, subject: String, body: String, app: App) async throws {
        for value in [address, from] where !Self.isPlainAddress(value) {
            throw SMTPError("not a plain email address: '\(value)'")
        }
        let message = SMTPMessage.build(
            from: from, to: address, subject: subject, body: body, milliseconds: clock.nowMilliseconds())
        let (host, port, timeout) = (self.host, self.port, timeoutSeconds)
        let (sender, username, password) = (from, self.username, self.password)
        do {
            try await pool.run { _ in
                var machine = SMTPStateMachine(
                    clientName: "bmob-server", sender: sender, recipient: address, message: message,
                    username: username, password: password)
                let connection = try SMTPConnection(host: host, port: port, timeout: timeout)
                while true {
                    let bytes = try connection.read()
                    guard !bytes.isEmpty else { throw SMTPError("the server closed the connection") }
                    switch machine.bytesReceived(bytes) {
                    case .readMore: continue
                    case .send(let output): try connection.write(output)
                    case .finished: return
                    case .failed(let error): throw error
                    }
                }
            }
        } catch {
            logger.warning("SMTP delivery to \(address) through \(host):\(port) failed: \(error)")
            throw error
        }
    }

    /// An address without line breaks, angle brackets or spaces, with an `@`.
    private static func isPlainAddress(_ text: String) -> Bool {
        text.contains("@")
            && !text.unicodeScalars.contains { "\r\n<> \t".unicodeScalars.contains($0) || $0.value < 0x20 }
    }
}
