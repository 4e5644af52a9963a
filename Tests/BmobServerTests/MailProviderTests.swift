import BmobCrypto
import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

@Suite("Mail providers: SMTP over loopback, mail settings, the outbox")
struct MailProviderTests {
    private static let app = App(
        name: "Demo", applicationId: "app1", restKey: "r", masterKey: "m", secretKey: "0123456789abcdef", createdAt: 0)

    @Test("SMTPMailProvider authenticates with AUTH PLAIN and delivers headers and a base64 body")
    func smtpDelivery() async throws {
        let fake = try FakeSMTPServer(username: "mailer", password: "p@ss")
        let provider = SMTPMailProvider(
            host: "127.0.0.1", port: fake.port, username: "mailer", password: "p@ss", from: "no-reply@example.com",
            clock: .fixed(1_800_000_000_000), logger: .disabled, timeoutSeconds: 5)
        try await provider.send(
            to: "user@example.com", subject: "重置密码", body: "Open:\nhttp://x/1", app: Self.app)
        let commands = fake.commands
        #expect(commands.first == "EHLO bmob-server")
        #expect(commands.contains { $0.hasPrefix("AUTH PLAIN ") })
        #expect(commands.contains("MAIL FROM:<no-reply@example.com>"))
        #expect(commands.contains("RCPT TO:<user@example.com>"))
        #expect(commands.last == "QUIT")
        let data = try #require(fake.data)
        #expect(data.contains("To: user@example.com"))
        #expect(data.contains("Subject: =?UTF-8?B?"))
        let body = try #require(data.components(separatedBy: "\r\n\r\n").last)
        let decoded = try #require(Base64.decode(Array(body.replacingOccurrences(of: "\r\n", with: "").utf8)))
        #expect(String(decoding: decoded, as: UTF8.self) == "Open:\r\nhttp://x/1")
    }

    @Test("bad credentials, an unreachable server and header injection fail with SMTPError")
    func smtpFailures() async throws {
        let fake = try FakeSMTPServer(username: "mailer", password: "right")
        let wrong = SMTPMailProvider(
            host: "127.0.0.1", port: fake.port, username: "mailer", password: "wrong", from: "a@example.com",
            clock: .system, logger: .disabled, timeoutSeconds: 5)
        await #expect(throws: SMTPError("authentication failed: 5.7.8 bad credentials", replyCode: 535)) {
            try await wrong.send(to: "u@example.com", subject: "s", body: "b", app: Self.app)
        }
        // A port nobody listens on: the fake above is done, take its port after it closes.
        let closed = SMTPMailProvider(
            host: "127.0.0.1", port: 1, username: nil, password: nil, from: "a@example.com", clock: .system,
            logger: .disabled, timeoutSeconds: 2)
        await #expect(throws: SMTPError.self) {
            try await closed.send(to: "u@example.com", subject: "s", body: "b", app: Self.app)
        }
        await #expect(throws: SMTPError.self) {
            try await closed.send(to: "u@example.com>\r\nRCPT TO:<x@y.z", subject: "s", body: "b", app: Self.app)
        }
    }

    @Test("smtp settings from flags and environment choose the SMTP provider; without smtpHost mail goes to the outbox")
    func settings() throws {
        let configuration = try ConfigurationLoader.load(
            flags: ["--smtp-host": "mail.internal", "--smtp-port": "587", "--mail-from": "app@example.com"],
            environment: ["BMOB_SMTP_USER": "mailer", "BMOB_SMTP_PASSWORD": "secret"])
        #expect(configuration.smtpHost == "mail.internal" && configuration.smtpPort == 587)
        #expect(configuration.smtpUser == "mailer" && configuration.smtpPassword == "secret")
        #expect(configuration.mailFrom == "app@example.com")
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.load(flags: ["--smtp-port": "0"], environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.load(flags: ["--mail-from": "a@b.c\r\nBcc: x"], environment: [:])
        }
        let pool = ThreadPool(threadCount: 1, name: "mail-settings-test")
        defer { pool.shutdown() }
        let smtp = MessageProviders.standard(
            configuration: configuration, logger: .disabled, pool: pool, clock: .system)
        let mail = try #require(smtp.mail as? SMTPMailProvider)
        #expect(mail.host == "mail.internal" && mail.port == 587 && mail.from == "app@example.com")
        #expect(smtp.sms is OutboxProvider)
        let outbox = MessageProviders.standard(
            configuration: ServerConfiguration(), logger: .disabled, pool: pool, clock: .system)
        #expect(outbox.mail is OutboxProvider)
    }

    @Test("the outbox appends one JSON line per message to <data>/outbox/<applicationId>.jsonl")
    func outboxFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pool = ThreadPool(threadCount: 2, name: "outbox-test")
        defer { pool.shutdown() }
        let outbox = OutboxProvider(
            directory: OutboxProvider.directory(dataDirectory: folder), pool: pool, logger: .disabled,
            clock: .fixed(1_800_000_000_000))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await outbox.send(
                        to: "1380000\(1000 + index)", code: "12345\(index % 10)", template: nil, app: Self.app)
                }
            }
            try await group.waitForAll()
        }
        try await outbox.send(to: "a@example.com", subject: "Hi", body: "line\nline", app: Self.app)
        let text = try String(contentsOfFile: outbox.path(applicationId: "app1"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 21)
        let records = try lines.map { try JSONParser.parse(Array($0.utf8)) }
        #expect(records.filter { $0["kind"] == "sms" }.count == 20)
        #expect(records.allSatisfy { $0["time"] == "2027-01-15 08:00:00" })
        #expect(
            records.last == [
                "time": "2027-01-15 08:00:00", "kind": "email", "to": "a@example.com", "subject": "Hi",
                "body": "line\nline",
            ])
    }
}
