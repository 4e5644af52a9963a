package import BmobServer
import BmobIO

/// A log handler for tests that keeps every message in memory, to check what the server logged.
///
/// ```swift
/// let recorder = RecordingLogHandler()
/// let server = try await TestServer.start(logger: Logger(label: "test", level: .debug, handler: recorder))
/// // … provoke an error …
/// #expect(recorder.entries.contains { $0.level == .error && $0.message.contains("request") })
/// ```
package final class RecordingLogHandler: LogHandler {
    /// One message as the logger handed it over.
    package struct Entry: Sendable, Equatable {
        package var level: LogLevel
        package var label: String
        package var message: String
        package var metadata: [String: String]
    }

    private let lock = Lock()
    // Invariant: read and written only under `lock`.
    private nonisolated(unsafe) var recorded: [Entry] = []

    /// A handler with nothing recorded.
    package init() {}

    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {
        let entry = Entry(level: level, label: label, message: message, metadata: metadata)
        lock.withLock { recorded.append(entry) }
    }

    /// Every message so far, oldest first.
    package var entries: [Entry] {
        lock.withLock { recorded }
    }

    /// Messages at `level` or above.
    package func entries(atLeast level: LogLevel) -> [Entry] {
        entries.filter { $0.level >= level }
    }
}
