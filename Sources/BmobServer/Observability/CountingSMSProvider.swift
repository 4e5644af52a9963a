/// An SMS provider that counts what the one it wraps sent and failed to send, for `/metrics`.
struct CountingSMSProvider: SMSProvider {
    let inner: any SMSProvider
    let sent: MetricCounter
    let failed: MetricCounter

    func send(to phone: String, code: String, template: String?, app: App) async throws {
        do {
            try await inner.send(to: phone, code: code, template: template, app: app)
            sent.add()
        } catch {
            failed.add()
            throw error
        }
    }
}
