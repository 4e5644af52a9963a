import BmobIO
import BmobTesting
import Foundation
import Testing

/// A Python WebSocket server from `Tests/Support/python/`, run as a child process: it prints `PORT <n>`
/// first, then one line per event the test checks; it exits when its stdin closes (``stop()``).
final class PythonPeer: Sendable {
    /// The port the server listens on.
    let port: Int
    private let process: ChildProcess
    private let lines: LineCollector

    /// Starts `script` with `arguments` and waits for its port.
    init(script: String, arguments: [String] = []) async throws {
        let process = try PythonPeers.start(script: script, arguments: arguments, input: .pipe, error: .inherit)
        let lines = LineCollector(process)
        self.process = process
        self.lines = lines
        let portLine = try await lines.waitForLine(prefix: "PORT ", timeout: 15)
        guard let port = Int(portLine.dropFirst(5)) else { throw PeerError("bad port line \(portLine)") }
        self.port = port
    }

    /// Waits for the next output line starting with `prefix` that was not returned before.
    func line(prefix: String, timeout: Double = 10) async throws -> String {
        try await lines.waitForLine(prefix: prefix, timeout: timeout)
    }

    /// Closes the server's stdin so that it exits; one that is still running 5 s later is terminated. Returns
    /// at once: waiting here would hold a thread of Swift's shared executor, which the code under test needs.
    func stop() {
        process.closeInput()
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { process.send(SIGTERM) }
    }

    deinit {
        process.send(SIGTERM)
    }
}
