import BmobSDK
import Foundation

/// Reads an event stream in a task and keeps what arrived, and whether the stream ended.
///
/// Invariant for `@unchecked Sendable`: `received` and `ended` are only touched while `lock` is held.
final class EventCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [BmobEventMessage] = []
    private var ended = false
    private(set) var task: Task<Void, Never>!

    init(_ stream: AsyncStream<BmobEventMessage>) {
        task = Task { [self] in
            for await message in stream {
                lock.withLock { received.append(message) }
            }
            lock.withLock { ended = true }
        }
    }

    var messages: [BmobEventMessage] { lock.withLock { received } }
    var hasEnded: Bool { lock.withLock { ended } }

    /// The messages of `className` whose data has `field` equal to `value`.
    func messages(className: String, field: String, equalTo value: String) -> [BmobEventMessage] {
        messages.filter { $0.className == className && ($0.data?[field] as? String) == value }
    }

    /// Waits until `predicate` holds for the messages received so far.
    @discardableResult
    func wait(timeout: Double = 10, _ what: String, until predicate: ([BmobEventMessage]) -> Bool) async throws -> [BmobEventMessage] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let messages = self.messages
            if predicate(messages) { return messages }
            guard Date() < deadline else { throw FixtureError("timed out waiting for \(what); got \(messages.map(\.rawValueText))") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the stream to end.
    func waitForEnd(timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasEnded {
            guard Date() < deadline else { throw FixtureError("the stream did not end") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension BmobEventMessage {
    /// A short description for failure messages.
    var rawValueText: String { "\(action ?? "?") \(className ?? "?") \(objectId ?? "?")" }
}
