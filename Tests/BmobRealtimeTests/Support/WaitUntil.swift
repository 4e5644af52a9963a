import Foundation

/// Polls `probe` every 10 ms until it returns a value, or fails after `timeout` seconds.
func waitUntil<T>(timeout: Double, _ what: String, _ probe: () -> T?) async throws -> T {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = probe() { return value }
        guard Date() < deadline else { throw PeerError("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
