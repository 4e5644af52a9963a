import Foundation

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

/// Polls `probe`, running `action` before each probe (every 100 ms), until `probe` returns a value.
@discardableResult
func waitUntil<T>(timeout: Double, _ what: String, _ probe: () -> T?, orEvery action: () async throws -> Void)
    async throws -> T
{
    let deadline = Date().addingTimeInterval(max(timeout, 20))
    while true {
        try await action()
        try await Task.sleep(for: .milliseconds(100))
        if let value = probe() { return value }
        guard Date() < deadline else { throw TestFailure("timed out waiting for \(what)") }
    }
}
