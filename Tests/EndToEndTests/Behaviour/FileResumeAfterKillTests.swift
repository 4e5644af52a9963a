import BmobCore
@testable import BmobFile
import BmobSDK
import BmobServer
import BmobTesting
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
    @Test("An upload whose app was killed resumes in a new BmobFile without sending the stored parts again")
    func resumeAfterTheAppWasKilled() async throws {
        let (server, client) = try await Self.multipartServer()
        let bytes = Self.randomBytes(6 * 1024 * 1024 + 1)
        let source = try Self.writeTemporary(bytes, name: "killed.mov")
        let recordsBefore = Set(Self.resumeRecords())
        let program = try #require(
            TestExecutables.url(named: "bmob-upload-client"), "bmob-upload-client not found next to the test binary")

        let child = try await KilledChild.run(
            program, arguments: [server.baseURL, TestServer.applicationId, BmobLocalStorage.root.path, source.path],
            killWhen: { $0.count(where: { $0.hasPrefix("ack ") }) >= 2 })
        #expect(child.killedBySignal == SIGKILL, "the app must die by SIGKILL, not finish first")
        let acknowledged = child.lines.compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
        let partCount = try #require(child.lines.lazy.compactMap { $0.hasPrefix("initiated ") ? Int($0.dropFirst(10)) : nil }.first)
        #expect(partCount >= 4)
        #expect(acknowledged.count >= 2)
        // The dead app left its resume record on disk.
        #expect(Set(Self.resumeRecords()).subtracting(recordsBefore).count == 1)

        // Parts the child had in flight may still be landing: count from once the server's counter is still.
        let partsBefore = try await Self.settledPartCount(server)
        let file = try #require(BmobFile(filePath: source.path))
        file.client = client
        let events = EventLog()
        file.multipartObserver = { events.append($0) }
        try await file.upload()
        let partsStored = server.server.fileUploads.partsReceived - partsBefore

        let resumed = try #require(events.resumedParts, "the upload started over instead of resuming")
        #expect(Set(acknowledged).isSubset(of: Set(resumed)))
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
}
