import BmobIO
import BmobTesting
import Foundation

/// Runs a script of `Tests/Support/python` with the interpreter `scripts/bootstrap.sh` installs (the
/// `websockets` library as an independent protocol peer), and returns its standard output.
enum PythonPeer {
    /// Runs the script to completion (at most `timeout` seconds).
    ///
    /// - Throws: ``PythonPeers/NotInstalled`` when the interpreter is missing, ``TestFailure`` when the script
    ///   fails or times out.
    static func run(_ name: String, _ arguments: [String], timeout: Double = 30) async throws -> String {
        let process = try PythonPeers.start(script: name, arguments: arguments)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            process.send(SIGTERM)
        }
        // Read while it runs, so a full pipe cannot block the script. The blocking reads get threads of their
        // own: on Swift's shared executor they would hold its few threads, and the server under test (whose
        // realtime feeds run there) would stall until the script ends.
        async let out = Self.readToEnd(process.output!)
        async let err = Self.readToEnd(process.error!)
        let termination = await process.waitForExit()
        watchdog.cancel()
        let (stdout, stderr) = await (out, err)
        guard termination == .exited(0) else {
            throw TestFailure("\(name) ended with \(termination): \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    private static func readToEnd(_ fd: Int32) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Foundation.Thread.detachNewThread {
                continuation.resume(returning: ChildProcess.readToEnd(fd))
            }
        }
    }

    /// Starts a script that serves HTTP (a webhook receiver) and prints `PORT <n>` once listening; returns the
    /// process and the port.
    ///
    /// - Throws: ``TestFailure`` when the script ends or prints something else first.
    static func startListening(_ name: String, _ arguments: [String]) throws -> (process: ChildProcess, port: Int) {
        let process = try PythonPeers.start(script: name, arguments: arguments, error: .null)
        var pending: [UInt8] = []
        while !pending.contains(UInt8(ascii: "\n")) {
            let chunk = ChildProcess.read(process.output!)
            if chunk.isEmpty { break }
            pending += chunk
        }
        let line = String(decoding: pending, as: UTF8.self)
        guard let port = line.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            process.send(SIGKILL)
            throw TestFailure("\(name) did not start: \(line)")
        }
        return (process, port)
    }
}
