import Foundation

/// Polls `probe` every 10 ms until it returns a value, or fails after `timeout` seconds — stretched to at
/// least 20: the timeout only matters when something is wrong, and a whole-suite run on two cores has starved
/// a correct test of its 5 s (the same reasoning as `RawHTTPConnection.defaultTimeout`).
func waitUntil<T>(timeout: Double, _ what: String, _ probe: () -> T?) async throws -> T {
    let deadline = Date().addingTimeInterval(max(timeout, 20))
    while true {
        if let value = probe() { return value }
        guard Date() < deadline else { throw PeerError("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
