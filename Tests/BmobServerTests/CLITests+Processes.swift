import BmobIO
import BmobTesting
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the suites that drive the `bmob` binary share: running a command, a fresh path, a server on a free port.
extension CLITests {
    /// Runs `bmob` with `arguments` to its end, on a thread of its own (see ``runBlocking(_:)``).
    static func runOnItsOwnThread(_ arguments: [String]) async throws -> Result {
        try await withoutBlockingThePool { try runBlocking(arguments) }
    }

    /// A path under the temporary folder that does not exist yet.
    static func temporaryPath(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bmob-\(label)-\(UUID().uuidString)").path
    }

    /// Starts `bmob serve` on `data` and port 0, and returns it with the port it listens on.
    static func serveOnFreePort(_ data: String) async throws -> (process: ChildProcess, port: Int) {
        let (process, text) = try await withoutBlockingThePool { try serve(["--port", "0", "--data", data]) }
        let line = text.split(separator: "\n").first { $0.hasPrefix("listening on ") } ?? ""
        guard let port = Int(line.split(separator: ":").last ?? "") else {
            process.send(SIGKILL)
            throw TestFailure("bmob serve did not start: \(text)")
        }
        return (process, port)
    }
}
