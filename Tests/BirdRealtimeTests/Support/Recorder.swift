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
        try await waitUntil(timeout: timeout, what) { self.lines.first(where: predicate) }
    }

    /// Waits until a line starting with `prefix` is recorded.
    @discardableResult
    func wait(prefix: String, timeout: Double = 20) async throws -> String {
        try await wait(for: prefix, timeout: timeout) { $0.hasPrefix(prefix) }
    }
}

/// A failed wait or precondition.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `probe` every 10 ms until it returns a value, or fails after `timeout` seconds (at least 20 s: the
/// timeout only matters when something is wrong, and a whole-suite run on two cores is slow).
@discardableResult
func waitUntil<T>(timeout: Double, _ what: String, _ probe: () -> T?) async throws -> T {
    let deadline = Date().addingTimeInterval(max(timeout, 20))
    while true {
        if let value = probe() { return value }
        guard Date() < deadline else { throw TestFailure("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Waits `seconds` of real time, for checks that something does *not* happen.
func settle(_ seconds: Double = 0.3) async throws {
    try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}
