import BmobServer
package import BmobWire
import Foundation

extension TestServer {
    /// The development outbox of the test app: every SMS and mail the server "sent", oldest first, as the JSON
    /// objects of `<data>/outbox/<applicationId>.jsonl` (`time`, `kind`, `to`, `code`, `subject`, `body`).
    /// Empty before the first message.
    package func outbox() throws -> [[String: JSONValue]] {
        let path = URL(fileURLWithPath: OutboxProvider.directory(dataDirectory: dataDirectory.path))
            .appendingPathComponent("\(Self.applicationId).jsonl").path
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return try data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            try JSONParser.parse(Array(line)).objectValue
        }
    }

    /// The code of the newest SMS to `phone` in the outbox.
    package func latestSmsCode(for phone: String) throws -> String? {
        try outbox().last { $0["kind"] == "sms" && $0["to"]?.stringValue == phone }?["code"]?.stringValue
    }

    /// The first link (`http://…` up to the end of its line) of the newest mail to `address` in the outbox.
    package func latestEmailLink(to address: String) throws -> String? {
        guard
            let body = try outbox().last(where: { $0["kind"] == "email" && $0["to"]?.stringValue == address })?["body"]?
                .stringValue
        else { return nil }
        for line in body.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("http://") || text.hasPrefix("https://") { return text }
        }
        return nil
    }
}
