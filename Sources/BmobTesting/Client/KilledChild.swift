import BmobIO
import Dispatch
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a child that reports its progress as lines on standard output and kills it with SIGKILL midway, for the
/// tests of what survives a crash (the store's writer, the SDK's uploads).
package enum KilledChild {
    /// What the child printed and how it ended.
    package struct Outcome: Sendable {
        /// Every line of its standard output, those written before the kill included.
        package var lines: [String]
        /// The signal that ended it, `nil` when it exited on its own.
        package var killedBySignal: Int32?
    }

    /// Runs `program` with `arguments`, reads its lines, sends SIGKILL once `killWhen` holds for the lines so far,
    /// and keeps reading to the end, so that lines written before the kill count too. A child that stalls is killed
    /// after 120 s, so the test fails instead of hanging. The blocking reads run on a Dispatch thread.
    package static func run(
        _ program: URL, arguments: [String], killWhen: @escaping @Sendable ([String]) -> Bool
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(program, arguments: arguments, killWhen: killWhen) })
            }
        }
    }

    private static func runBlocking(_ program: URL, arguments: [String], killWhen: ([String]) -> Bool) throws -> Outcome {
        let process = try ChildProcess(program.path, arguments, output: .pipe)
        let watchdog = DispatchWorkItem { process.send(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }

        var pending: [UInt8] = []
        var lines: [String] = []
        var killed = false
        while true {
            let data = ChildProcess.read(process.output!)
            if data.isEmpty { break }
            pending += data
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if !killed, killWhen(lines) {
                process.send(SIGKILL)
                killed = true
            }
        }
        let ended = DispatchSemaphore(value: 0)
        process.onTermination { _ in ended.signal() }
        ended.wait()
        var signal: Int32?
        if case .signaled(let number) = process.termination { signal = number }
        return Outcome(lines: lines, killedBySignal: signal)
    }
}
