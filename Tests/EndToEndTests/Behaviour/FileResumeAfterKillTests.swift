import BmobCore
@testable import BmobFile
import BmobIO
import BmobSDK
import BmobServer
import BmobTesting
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Resuming after the app itself died: a child process (`bmob-upload-client`, an app that uploads with BmobFile)
// is killed with SIGKILL midway through a multipart upload, and a new BmobFile for the same name and content in
// this process finishes it from the resume record the child left, without sending the stored parts again.

extension EndToEnd.FileBehaviourTests {
    /// What the killed child printed and how it ended.
    struct ChildUpload: Sendable {
        var partCount: Int?
        var acknowledged: [Int]
        var killedBySignal: Int32?
    }

    @Test("An upload whose app was killed resumes in a new BmobFile without sending the stored parts again")
    func resumeAfterTheAppWasKilled() async throws {
        let (server, client) = try await Self.multipartServer()
        let bytes = Self.randomBytes(6 * 1024 * 1024 + 1)
        let source = try Self.writeTemporary(bytes, name: "killed.mov")
        let recordsBefore = Set(Self.resumeRecords())
        let program = try #require(Self.uploadClientURL(), "bmob-upload-client not found next to the test binary")

        let child = try await Self.runAndKill(
            program, arguments: [server.baseURL, TestServer.applicationId, BmobLocalStorage.root.path, source.path],
            afterAcknowledgements: 2)
        #expect(child.killedBySignal == SIGKILL, "the app must die by SIGKILL, not finish first")
        let partCount = try #require(child.partCount)
        #expect(partCount >= 4)
        #expect(child.acknowledged.count >= 2)
        // The dead app left its resume record on disk.
        #expect(Set(Self.resumeRecords()).subtracting(recordsBefore).count == 1)

        // Parts the child had in flight may still be landing: count from once the server's counter is still.
        var partsBefore = server.server.fileUploads.partsReceived
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(100))
            let now = server.server.fileUploads.partsReceived
            if now == partsBefore { break }
            partsBefore = now
        }
        let file = try #require(BmobFile(filePath: source.path))
        file.client = client
        let events = EventLog()
        file.multipartObserver = { events.append($0) }
        try await file.upload()
        let partsStored = server.server.fileUploads.partsReceived - partsBefore

        let resumed = try #require(events.resumedParts, "the upload started over instead of resuming")
        #expect(Set(child.acknowledged).isSubset(of: Set(resumed)))
        #expect(events.initiatedPartCount == nil)
        #expect(Set(events.sent).isDisjoint(with: resumed))
        #expect(Set(events.sent).union(resumed) == Set(1...partCount))
        // The server stored only the parts that were missing.
        #expect(partsStored == partCount - resumed.count)
        #expect(partsStored == events.sent.count)
        #expect(Set(Self.resumeRecords()).subtracting(recordsBefore).isEmpty)
        // What else the killed app left in the folder is a temporary of a record's write, which a later process
        // sweeps once it is stale.
        let folder = BmobLocalStorage.root.appendingPathComponent(ResumeStore.folderName, isDirectory: true)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".json") }
        #expect(leftovers.allSatisfy { $0.contains(ResumeStore.temporaryMarker) }, "\(leftovers)")
        let (downloaded, status) = try await Self.download(try #require(file.url))
        #expect(status == 200)
        #expect(downloaded == bytes)
    }

    /// The child executable, built with the tests; SwiftPM puts it beside the test binary.
    static func uploadClientURL() -> URL? {
        var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()]
        if let executable = Bundle.main.executableURL { starts.append(executable.resolvingSymlinksInPath()) }
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: link))
        }
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("bmob-upload-client")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// Runs the child, reads its lines, SIGKILLs it once `count` parts were acknowledged, and reads to EOF so that
    /// lines written before the kill count too. Blocking, so it runs on a Dispatch thread.
    static func runAndKill(_ program: URL, arguments: [String], afterAcknowledgements count: Int) async throws
        -> ChildUpload
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runAndKillBlocking(program, arguments: arguments, count: count) })
            }
        }
    }

    private static func runAndKillBlocking(_ program: URL, arguments: [String], count: Int) throws -> ChildUpload {
        let process = try ChildProcess(program.path, arguments, output: .pipe)
        // A child that stalls is killed after 120 s, so the test fails instead of hanging.
        let watchdog = DispatchWorkItem { process.send(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }

        var pending: [UInt8] = []
        var outcome = ChildUpload(partCount: nil, acknowledged: [], killedBySignal: nil)
        var killed = false
        while true {
            let data = ChildProcess.read(process.output!)
            if data.isEmpty { break }
            pending += data
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let words = String(decoding: pending[..<newline], as: UTF8.self).split(separator: " ")
                pending.removeSubrange(...newline)
                switch words.first {
                case "ack": if let part = words.last.flatMap({ Int($0) }) { outcome.acknowledged.append(part) }
                case "initiated": outcome.partCount = words.last.flatMap { Int($0) }
                default: break
                }
            }
            if !killed, outcome.acknowledged.count >= count {
                process.send(SIGKILL)
                killed = true
            }
        }
        let ended = DispatchSemaphore(value: 0)
        process.onTermination { _ in ended.signal() }
        ended.wait()
        if case .signaled(let number) = process.termination { outcome.killedBySignal = number }
        return outcome
    }
}
