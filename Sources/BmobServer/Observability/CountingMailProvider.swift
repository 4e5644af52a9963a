/// A mail provider that counts what the one it wraps sent and failed to send, for `/metrics`.
struct CountingMailProvider: MailProvider {
    let inner: any MailProvider
    let sent: MetricCounter
    let failed: MetricCounter

    func send(to address: String, subject: String, body: String, app: App) async throws {
        do {
            try await inner.send(to: address, subject: subject, body: body, app: app)
            sent.add()
        } catch {
            failed.add()
            throw error
        }
    }
}
