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
        let process = try PythonPeers.process(script: name, arguments: arguments)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in finished.continuation.finish() }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            process.terminate()
        }
        // Read while it runs, so a full pipe cannot block the script. The blocking reads get threads of their
        // own: on Swift's shared executor they would hold its few threads, and the server under test (whose
        // realtime feeds run there) would stall until the script ends.
        async let out = Self.readToEnd(output.fileHandleForReading)
        async let err = Self.readToEnd(errors.fileHandleForReading)
        for await _ in finished.stream {}
        watchdog.cancel()
        let (stdout, stderr) = await (out, err)
        guard process.terminationStatus == 0 else {
            throw TestFailure("\(name) exited with \(process.terminationStatus): \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: handle.readDataToEndOfFile())
            }
        }
    }
}
