import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bmob backup` and `bmob restore`, run as operators run them: the built binary against a serving `bmob serve`.
@Suite struct BackupCLITests {
    static let headers = [("X-Bmob-Application-Id", "backupdemo"), ("X-Bmob-REST-API-Key", "rk")]
    static let masterHeaders = [("X-Bmob-Application-Id", "backupdemo"), ("X-Bmob-Master-Key", "mk")]

    @Test func backupWhileWritingKeepsEveryAcknowledgedWriteAndRestoresAServableFolder() async throws {
        let data = CLITests.temporaryPath("backup-data")
        let restored = CLITests.temporaryPath("backup-restored")
        let archive = CLITests.temporaryPath("backup") + ".tar"
        defer {
            for path in [data, restored, archive] { try? FileManager.default.removeItem(atPath: path) }
        }
        let created = try await CLITests.runOnItsOwnThread([
            "apps", "create", "--data", data, "--name", "Backup", "--app-id", "backupdemo", "--rest-key", "rk", "--master-key", "mk",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let server = try await CLITests.serveOnFreePort(data)
        defer { server.process.send(SIGKILL) }

        let upload = try RawHTTPConnection(port: server.port)
        try await upload.send(HTTPRequestText.make("POST", "/2/files/hello.txt", headers: Self.headers, body: Array("hello backup".utf8)))
        let uploaded = try await upload.readResponse()
        #expect(uploaded.status == 200, "\(uploaded.text)")
        let fileURL = uploaded.json?["url"]?.stringValue ?? ""
        let filePath = "/" + fileURL.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3).joined(separator: "/")

        // Several clients create objects without pause; each objectId is recorded once its 201 arrived.
        let acknowledged = LockedValue<[String]>([])
        let stop = LockedValue(false)
        let port = server.port
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        let connection = try RawHTTPConnection(port: port)
                        var index = 0
                        while !stop.withLock({ $0 }) {
                            index += 1
                            try await connection.send(
                                HTTPRequestText.make(
                                    "POST", "/1/classes/Note", headers: Self.headers, json: #"{"writer":\#(writer),"n":\#(index)}"#))
                            let response = try await connection.readResponse()
                            guard response.status == 201, let id = response.json?["objectId"]?.stringValue else {
                                throw TestFailure("create answered \(response.status): \(response.text)")
                            }
                            acknowledged.withLock { $0.append(id) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while acknowledged.withLock({ $0.count }) < 300 {
            guard ContinuousClock.now < deadline else {
                stop.withLock { $0 = true }
                try await writers.value
                throw TestFailure("the writers acknowledged fewer than 300 creates in 60 s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Everything acknowledged so far was acknowledged before the backup started.
        let beforeBackup = acknowledged.withLock { $0 }
        let backup = try await CLITests.runOnItsOwnThread(["backup", "--data", data, "--to", archive])
        let duringBackup = acknowledged.withLock { $0.count }
        stop.withLock { $0 = true }
        try await writers.value
        #expect(backup.status == 0, "\(backup.stdout) \(backup.stderr)")
        #expect(backup.stdout.contains("backed up 1 app(s), 1 database(s), 1 file(s)"))
        #expect(duringBackup >= beforeBackup.count)
        server.process.send(SIGTERM)
        #expect(await server.process.waitForExit() == .exited(0))

        // A second backup to the same name is refused rather than overwriting it.
        #expect(try await CLITests.runOnItsOwnThread(["backup", "--data", data, "--to", archive]).status == 1)

        let restore = try await CLITests.runOnItsOwnThread(["restore", "--from", archive, "--data", restored])
        #expect(restore.status == 0, "\(restore.stdout) \(restore.stderr)")
        #expect(try SQLiteOnlineBackup.integrityProblems(path: restored + "/apps/backupdemo/data.sqlite") == [])
        // Restoring over the now non-empty folder needs --force.
        let again = try await CLITests.runOnItsOwnThread(["restore", "--from", archive, "--data", restored])
        #expect(again.status == 1)
        #expect(again.stderr.contains("--force"))
        #expect(try await CLITests.runOnItsOwnThread(["restore", "--from", archive, "--data", restored, "--force"]).status == 0)

        let copy = try await CLITests.serveOnFreePort(restored)
        defer { copy.process.send(SIGKILL) }
        let client = try RawHTTPConnection(port: copy.port)
        var restoredIds = Set<String>()
        while true {
            try await client.send(
                HTTPRequestText.make(
                    "GET", "/1/classes/Note?limit=1000&skip=\(restoredIds.count)&order=createdAt,objectId&keys=objectId",
                    headers: Self.masterHeaders))
            let page = try await client.readResponse()
            #expect(page.status == 200, "\(page.text)")
            let ids = page.json?["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
            restoredIds.formUnion(ids)
            if ids.count < 1000 { break }
        }
        let missing = Set(beforeBackup).subtracting(restoredIds)
        #expect(missing.isEmpty, "\(missing.count) acknowledged writes missing from the restored copy")
        #expect(restoredIds.count <= duringBackup + 4)
        try await client.send(HTTPRequestText.make("GET", filePath))
        let file = try await client.readResponse()
        #expect(file.status == 200)
        #expect(file.text == "hello backup")
        copy.process.send(SIGTERM)
        #expect(await copy.process.waitForExit() == .exited(0))
    }

    @Test func helpAndUsage() async throws {
        let help = try await CLITests.runOnItsOwnThread(["help"])
        #expect(help.stdout.contains("backup") && help.stdout.contains("restore"))
        #expect(try await CLITests.runOnItsOwnThread(["backup", "--help"]).stdout.contains("pg_dump"))
        let postgres = try await CLITests.runOnItsOwnThread(["backup", "--data", "/tmp/x", "--to", "/tmp/y", "--database", "postgres://h/db"])
        #expect(postgres.status == 2)
        #expect(postgres.stderr.contains("pg_dump"))
        #expect(try await CLITests.runOnItsOwnThread(["restore", "--help"]).stdout.contains("--force"))
        #expect(try await CLITests.runOnItsOwnThread(["backup", "--data", "/tmp/x"]).status == 2)
        let noFolder = try await CLITests.runOnItsOwnThread(["backup", "--data", CLITests.temporaryPath("none"), "--to", CLITests.temporaryPath("none")])
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.contains("apps.json"))
    }
}
