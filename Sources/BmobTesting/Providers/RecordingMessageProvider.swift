package import BmobServer
import BmobIO

/// A fake SMS and mail provider for tests: it keeps every message in memory instead of sending it, and can be
/// told to fail, to test what a server does when delivery breaks.
///
/// ```swift
/// let recorder = RecordingMessageProvider()
/// let server = try await TestServer.start(providers: MessageProviders(sms: recorder, mail: recorder))
/// // … request a code …
/// let code = recorder.messages.last?.code
/// ```
package final class RecordingMessageProvider: SMSProvider, MailProvider {
    /// One message handed to the provider.
    package struct Message: Sendable, Equatable {
        /// `sms` or `email`.
        package var kind: String
        /// The phone number or address.
        package var to: String
        /// The SMS code (SMS only).
        package var code: String?
        /// The SMS template (SMS only).
        package var template: String?
        /// The mail's subject (mail only).
        package var subject: String?
        /// The mail's text (mail only).
        package var body: String?
        /// The app's id.
        package var applicationId: String
    }

    /// An error thrown while ``isFailing`` is set.
    package struct DeliveryFailure: Error, Sendable {}

    private let lock = Lock()
    // Invariant: read and written only under `lock`.
    private nonisolated(unsafe) var recorded: [Message] = []
    private nonisolated(unsafe) var failing = false

    /// A provider with no messages that delivers.
    package init() {}

    /// The messages so far, oldest first.
    package var messages: [Message] {
        lock.withLock { recorded }
    }

    /// While `true`, every send throws ``DeliveryFailure`` and records nothing.
    package var isFailing: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    package func send(to phone: String, code: String, template: String?, app: App) async throws {
        try record(Message(kind: "sms", to: phone, code: code, template: template, applicationId: app.applicationId))
    }

    package func send(to address: String, subject: String, body: String, app: App) async throws {
        try record(Message(kind: "email", to: address, subject: subject, body: body, applicationId: app.applicationId))
    }

    private func record(_ message: Message) throws {
        try lock.withLock {
            if failing { throw DeliveryFailure() }
            recorded.append(message)
        }
    }
}
