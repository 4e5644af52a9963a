import BmobRealtime
import Foundation

/// Reads an event stream in a task and keeps what arrived, and whether the stream ended.
///
/// Invariant for `@unchecked Sendable`: `received` and `ended` are only touched while `lock` is held.
final class StreamCollector: @unchecked Sendable {
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

    func waitForMessages(_ count: Int, timeout: Double = 10) async throws -> [BmobEventMessage] {
        try await waitUntil(timeout: timeout, "\(count) stream messages") {
            let messages = self.messages
            return messages.count >= count ? messages : nil
        }
    }

    func waitForEnd(timeout: Double = 10) async throws {
        _ = try await waitUntil(timeout: timeout, "the end of the stream") { self.hasEnded ? true : nil }
    }
}
