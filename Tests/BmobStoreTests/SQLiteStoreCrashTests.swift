import BmobIO
import BmobStore
import BmobTesting
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("SQLiteStore crash safety", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreCrashTests {
    /// What the killed child acknowledged and how it ended.
    struct Outcome: Sendable {
        var acknowledged: [String]
        var killedBySignal: Int32?
    }

    @Test(arguments: [SQLiteStore.SynchronousMode.normal, .full])
    func killedWriterLosesNoAcknowledgedWrite(mode: SQLiteStore.SynchronousMode) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let writer = try #require(Self.crashWriterURL(), "bmob-crash-writer not found next to the test binary")
        let outcome = try await Self.runAndKill(
            writer, arguments: [database.path, "8", mode == .full ? "full" : "normal"], afterAcknowledgements: 300)
        #expect(outcome.killedBySignal == SIGKILL, "the child must die by SIGKILL, not exit on its own")
        #expect(outcome.acknowledged.count >= 300)

        let store = try await database.open()
        let acknowledged = outcome.acknowledged
        let missing = try await store.read { transaction in
            try acknowledged.filter { try transaction.fetch(className: "CrashItem", objectId: $0) == nil }
        }
        #expect(missing.isEmpty, "acknowledged writes lost: \(missing.prefix(10))")

        let journal = try await store.journal(after: 0, limit: 1_000_000)
        let journaled = journal.filter { $0.op == .create && $0.className == "CrashItem" }.compactMap(\.objectId)
        #expect(Set(acknowledged).isSubset(of: Set(journaled)))
        // Data and journal committed together: exactly one journal row per stored object.
        #expect(try await store.read { try $0.count(className: "CrashItem") } == journaled.count)
        #expect(Set(journaled).count == journaled.count)
        #expect(journal.map(\.seq) == Array(1...Int64(journal.count)))
        await store.close()
    }

    /// The child executable, built with the tests; SwiftPM puts it beside the test binary.
    static func crashWriterURL() -> URL? {
        var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()]
        if let executable = Bundle.main.executableURL { starts.append(executable.resolvingSymlinksInPath()) }
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: link))
        }
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("bmob-crash-writer")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// Runs the child, reads its `ack` lines, SIGKILLs it after `count` of them, and keeps reading to EOF so
    /// that lines written before the kill count too. Blocking, so it runs on a Dispatch thread.
    static func runAndKill(_ executable: URL, arguments: [String], afterAcknowledgements count: Int) async throws
        -> Outcome
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try runAndKillBlocking(executable, arguments: arguments, count: count) })
            }
        }
    }

    private static func runAndKillBlocking(_ executable: URL, arguments: [String], count: Int) throws -> Outcome {
        let process = try ChildProcess(executable.path, arguments, output: .pipe)
        // A child that stalls is killed after 120 s, so the test fails instead of hanging.
        let watchdog = DispatchWorkItem { process.send(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }

        var pending: [UInt8] = []
        var acknowledged: [String] = []
        var killed = false
        while true {
            let data = ChildProcess.read(process.output!)
            if data.isEmpty { break }
            pending += data
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix("ack ") { acknowledged.append(String(line.dropFirst(4))) }
            }
            if !killed, acknowledged.count >= count {
                process.send(SIGKILL)
                killed = true
            }
        }
        let ended = DispatchSemaphore(value: 0)
        process.onTermination { _ in ended.signal() }
        ended.wait()
        var signal: Int32?
        if case .signaled(let number) = process.termination { signal = number }
        return Outcome(acknowledged: acknowledged, killedBySignal: signal)
    }
}
