import BmobServer
import BmobStore
import BmobWire
import Foundation
import Testing

/// Archives a restore must refuse, each with its reason, leaving the target folder untouched.
@Suite struct BackupArchiveTests {
    /// A data folder with one app holding three objects and one stored file, and its backup.
    private func makeBackup() async throws -> (data: String, archive: String) {
        let data = CLITests.temporaryPath("archive-data")
        _ = try AppRegistry(dataDirectory: data).create(name: "Demo", applicationId: "demo", now: 1)
        let store = try await SQLiteStore.open(.init(path: data + "/apps/demo/data.sqlite"))
        try await store.write(caller: nil) { transaction in
            for index in 0..<3 {
                try transaction.insert(
                    StoredObject(className: "Note", objectId: "n\(index)", createdAt: 1, updatedAt: 2, fields: ["n": .int(Int64(index))]))
            }
        }
        await store.close()
        try FileManager.default.createDirectory(atPath: data + "/files/2026/01/02", withIntermediateDirectories: true)
        try Data("stored".utf8).write(to: URL(fileURLWithPath: data + "/files/2026/01/02/abc.txt"))
        try FileManager.default.createDirectory(atPath: data + "/files/.tmp", withIntermediateDirectories: true)
        try Data("in progress".utf8).write(to: URL(fileURLWithPath: data + "/files/.tmp/partial"))
        let archive = CLITests.temporaryPath("archive") + ".tar"
        let summary = try DataFolderBackup(dataDirectory: data).write(to: archive) { _ in }
        #expect(summary.databases == ["demo"])
        #expect(summary.fileCount == 1)
        return (data, archive)
    }

    /// An archive of `entries` (name, bytes, type flag), led by a valid manifest.
    private func handMade(_ entries: [(String, [UInt8])], typeFlag: UInt8? = nil) throws -> String {
        var bytes: [UInt8] = []
        let manifest: JSONValue = ["format": "bmob-backup", "version": 1, "apps": []]
        for (name, content) in [("bmob-backup.json", manifest.jsonBytes)] + entries {
            var header = try TarHeader(name: name, size: content.count, modificationTime: 0).encoded()
            if let typeFlag, name != "bmob-backup.json" {
                header[156] = typeFlag
                // Recompute the checksum so that only the type is wrong.
                for index in 148..<156 { header[index] = 0x20 }
                let sum = header.reduce(0) { $0 + Int($1) }
                let text = Array(String(sum, radix: 8).utf8)
                header.replaceSubrange(148..<156, with: [UInt8](repeating: UInt8(ascii: "0"), count: 6 - text.count) + text + [0, 0x20])
            }
            bytes += header + content
            bytes += [UInt8](repeating: 0, count: (512 - content.count % 512) % 512)
        }
        bytes += [UInt8](repeating: 0, count: 1024)
        let path = CLITests.temporaryPath("handmade") + ".tar"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func expectRefused(_ archive: String, containing reason: String) {
        let target = CLITests.temporaryPath("refused")
        defer { try? FileManager.default.removeItem(atPath: target) }
        #expect {
            _ = try DataFolderRestore(archivePath: archive, dataDirectory: target, force: false).run { _ in }
        } throws: { error in
            "\(error)".contains(reason)
        }
        #expect(!FileManager.default.fileExists(atPath: target), "a refused restore left \(target) behind")
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: (target as NSString).deletingLastPathComponent)) ?? []
        #expect(!siblings.contains { $0.hasPrefix("." + (target as NSString).lastPathComponent) }, "staging folder left")
    }

    @Test func aBackupRoundTripsAndLeavesUploadsInProgressOut() async throws {
        let (data, archive) = try await makeBackup()
        let target = CLITests.temporaryPath("roundtrip")
        defer { for path in [data, archive, target] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int == 0o600)
        let summary = try DataFolderRestore(archivePath: archive, dataDirectory: target, force: false).run { _ in }
        #expect(summary.applicationIds == ["demo"])
        #expect(try FileManager.default.attributesOfItem(atPath: target + "/apps.json")[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOfFile: target + "/files/2026/01/02/abc.txt", encoding: .utf8) == "stored")
        #expect(!FileManager.default.fileExists(atPath: target + "/files/.tmp"))
        let store = try await SQLiteStore.open(.init(path: target + "/apps/demo/data.sqlite"))
        let object = try await store.read { try $0.fetch(className: "Note", objectId: "n2") }
        #expect(object?.fields["n"] == .int(2))
        await store.close()
    }

    @Test func pathTraversalLinksAndUnknownNamesAreRefused() throws {
        for name in ["../evil", "files/../../evil", "/etc/passwd", "apps/../x/data.sqlite", "files/.uploads/x", "other.txt", "apps/a.b/data.sqlite"] {
            let archive = try handMade([(name, Array("x".utf8))])
            defer { try? FileManager.default.removeItem(atPath: archive) }
            expectRefused(archive, containing: "refused")
        }
        let link = try handMade([("files/2026/01/01/a.txt", [])], typeFlag: UInt8(ascii: "2"))
        defer { try? FileManager.default.removeItem(atPath: link) }
        expectRefused(link, containing: "links, devices")
    }

    @Test func damagedTruncatedAndForeignArchivesAreRefused() async throws {
        let (data, archive) = try await makeBackup()
        defer { for path in [data, archive] { try? FileManager.default.removeItem(atPath: path) } }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: archive)))

        let truncated = CLITests.temporaryPath("truncated")
        try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: truncated))
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        expectRefused(truncated, containing: "truncated")

        // One byte of the database changed: the closing manifest's checksum catches it.
        let database = bytes.indices.first { index in
            bytes[index..<min(index + 24, bytes.count)].elementsEqual("apps/demo/data.sqlite".utf8 + [0, 0, 0])
        }
        let contentStart = try #require(database) + 512
        bytes[contentStart + 2000] ^= 0xFF
        let damaged = CLITests.temporaryPath("damaged")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        defer { try? FileManager.default.removeItem(atPath: damaged) }
        expectRefused(damaged, containing: "checksum")

        let foreign = CLITests.temporaryPath("foreign")
        try Data(#"{"results": []}"#.utf8 + [UInt8](repeating: 0x20, count: 600)).write(to: URL(fileURLWithPath: foreign))
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        expectRefused(foreign, containing: "not a ustar archive")

        let unfinished = try handMade([("apps.json", Array(#"{"apps":[]}"#.utf8))])
        defer { try? FileManager.default.removeItem(atPath: unfinished) }
        expectRefused(unfinished, containing: "not finished")
    }

    @Test func aNonEmptyTargetNeedsForce() async throws {
        let (data, archive) = try await makeBackup()
        let target = CLITests.temporaryPath("occupied")
        defer { for path in [data, archive, target] { try? FileManager.default.removeItem(atPath: path) } }
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target + "/mine.txt"))
        #expect(throws: BackupError.self) {
            _ = try DataFolderRestore(archivePath: archive, dataDirectory: target, force: false).run { _ in }
        }
        #expect(FileManager.default.fileExists(atPath: target + "/mine.txt"))
        _ = try DataFolderRestore(archivePath: archive, dataDirectory: target, force: true).run { _ in }
        #expect(!FileManager.default.fileExists(atPath: target + "/mine.txt"))
        #expect(FileManager.default.fileExists(atPath: target + "/apps.json"))
    }

    @Test func longNamesSplitIntoTheUstarPrefix() throws {
        let name = "files/" + String(repeating: "a", count: 90) + "/" + String(repeating: "b", count: 90) + ".txt"
        let header = TarHeader(name: name, size: 5, modificationTime: 7)
        #expect(try TarHeader.decode(header.encoded()) == header)
        let tooLong = TarHeader(name: String(repeating: "c", count: 300), size: 1, modificationTime: 0)
        #expect(throws: BackupError.self) { try tooLong.encoded() }
    }
}
