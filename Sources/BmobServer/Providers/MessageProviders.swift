package import BmobIO

/// The SMS and mail providers a server sends its messages through.
///
/// By default (``standard(configuration:logger:pool:clock:)``) SMS go to the development outbox, and mail goes
/// to an SMTP server when `smtpHost` is configured, else to the outbox as well.
package struct MessageProviders: Sendable {
    /// Where verification codes go.
    package var sms: any SMSProvider
    /// Where password-reset and verification links go.
    package var mail: any MailProvider

    /// Providers of your choice.
    package init(sms: any SMSProvider, mail: any MailProvider) {
        self.sms = sms
        self.mail = mail
    }

    /// The providers a configuration asks for.
    ///
    /// - Parameters:
    ///   - configuration: `dataDirectory` (the outbox is `<data>/outbox/`) and the `smtp*` / `mailFrom` settings.
    ///   - logger: where the outbox logs each message and SMTP logs failures.
    ///   - pool: the blocking pool the outbox appends its files on.
    ///   - clock: the time written with each outbox record and in mail `Date` headers.
    package static func standard(
        configuration: ServerConfiguration, logger: Logger, pool: ThreadPool, clock: ServerClock
    ) -> MessageProviders {
        let outbox = OutboxProvider(
            directory: OutboxProvider.directory(dataDirectory: configuration.dataDirectory), pool: pool, logger: logger,
            clock: clock)
        guard let host = configuration.smtpHost else { return MessageProviders(sms: outbox, mail: outbox) }
        let smtp = SMTPMailProvider(
            host: host, port: configuration.smtpPort, username: configuration.smtpUser,
            password: configuration.smtpPassword,
            from: configuration.mailFrom ?? "no-reply@\(host)", clock: clock, logger: logger)
        return MessageProviders(sms: outbox, mail: smtp)
    }
}
