package import BmobIO
import BmobWire
import Foundation

/// The development provider for SMS and mail: nothing is sent; each message is appended as one JSON line to
/// `<data folder>/outbox/<applicationId>.jsonl` and logged.
///
/// A line is `{"time":"2024-04-12 08:00:00","kind":"sms","to":"13800138000","code":"123456","template":null,
/// "body":"…"}` for an SMS and `{"time":…,"kind":"email","to":"a@example.com","subject":"…","body":"…"}` for a
/// mail (`time` in UTC, Bmob's date format). Read it with `tail -f`, or from tests with BmobTesting's
/// `TestServer.outbox()`. Codes are logged at `info` level, which is the point in development and a leak in
/// production: configure a real provider there.
package final class OutboxProvider: SMSProvider, MailProvider {
    /// The folder the files are written in.
    package let directory: String
    private let pool: ThreadPool
    private let logger: Logger
    private let clock: ServerClock
    /// Serializes appends, so that lines from concurrent messages never interleave.
    private let lock = Lock()

    /// An outbox writing into `directory` (created on first use).
    package init(directory: String, pool: ThreadPool, logger: Logger, clock: ServerClock) {
        self.directory = directory
        self.pool = pool
        self.logger = logger
        self.clock = clock
    }

    /// `<dataDirectory>/outbox`.
    package static func directory(dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox", isDirectory: true).path
    }

    /// The file of one app: `<directory>/<applicationId>.jsonl`.
    package func path(applicationId: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent("\(applicationId).jsonl").path
    }

    package func send(to phone: String, code: String, template: String?, app: App) async throws {
        let body = "【\(app.name)】Your verification code is \(code). It is valid for 5 minutes."
        let record: JSONValue = [
            "time": .string(BmobDateFormat.format(millisecondsSince1970: clock.nowMilliseconds())),
            "kind": "sms", "to": .string(phone), "code": .string(code),
            "template": template.map(JSONValue.string) ?? .null,
            "body": .string(body),
        ]
        try await append(record, applicationId: app.applicationId)
        logger.info("outbox: SMS to \(phone): code \(code)", metadata: ["app": app.applicationId])
    }

    package func send(to address: String, subject: String, body: String, app: App) async throws {
        let record: JSONValue = [
            "time": .string(BmobDateFormat.format(millisecondsSince1970: clock.nowMilliseconds())),
            "kind": "email", "to": .string(address), "subject": .string(subject), "body": .string(body),
        ]
        try await append(record, applicationId: app.applicationId)
        logger.info("outbox: email to \(address): \(subject)\n\(body)", metadata: ["app": app.applicationId])
    }

    /// Appends one line on the blocking pool.
    private func append(_ record: JSONValue, applicationId: String) async throws {
        let line = record.jsonBytes + [UInt8(ascii: "\n")]
        let directory = self.directory
        let path = self.path(applicationId: applicationId)
        let lock = self.lock
        try await pool.run { _ in
            try lock.withLock {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: path) {
                    _ = FileManager.default.createFile(atPath: path, contents: nil)
                }
                guard let handle = FileHandle(forWritingAtPath: path) else {
                    throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
                }
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: line)
            }
        }
    }
}
