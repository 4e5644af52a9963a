import Foundation

/// Lines recorded from handlers running on any queue, and a poll that waits for one.
///
/// Invariant for `@unchecked Sendable`: `entries` is read and written only while `lock` is held.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func record(_ line: String) { lock.withLock { entries.append(line) } }
    var lines: [String] { lock.withLock { entries } }
    func clear() { lock.withLock { entries = [] } }
    func count(where predicate: (String) -> Bool) -> Int { lines.filter(predicate).count }

    /// Waits until a recorded line satisfies `predicate` and returns it.
    @discardableResult
    func wait(for what: String, timeout: Double = 20, _ predicate: @escaping (String) -> Bool) async throws -> String {
        do {
            return try await waitUntil(timeout: timeout, what) { self.lines.first(where: predicate) }
        } catch {
            throw TestFailure("timed out waiting for \(what); recorded: \(lines)")
        }
    }

    /// Waits until a line starting with `prefix` is recorded.
    @discardableResult
    func wait(prefix: String, timeout: Double = 20) async throws -> String {
        try await wait(for: prefix, timeout: timeout) { $0.hasPrefix(prefix) }
    }
}
