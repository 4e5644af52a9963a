import BmobCrypto
import BmobIO
import BmobStore
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob restore`: recreates a data folder from a ``DataFolderBackup`` archive.
///
/// Everything is written to a staging folder beside the target and checked there — every entry's name against
/// ``BackupArchiveLayout``, its size and SHA-256 against the closing manifest, the registry parsed, each database
/// through `PRAGMA integrity_check` — and only then renamed into place, so a refused archive leaves the target
/// as it was.
package struct DataFolderRestore: Sendable {
    /// The archive read.
    package let archivePath: String
    /// The data folder recreated.
    package let dataDirectory: String
    /// Whether a non-empty `dataDirectory` may be replaced.
    package let force: Bool

    /// A restore of `archivePath` into `dataDirectory`, replacing a non-empty one only with `force`.
    package init(archivePath: String, dataDirectory: String, force: Bool) {
        self.archivePath = archivePath
        self.dataDirectory = dataDirectory
        self.force = force
    }

    /// Restores the archive; `report` gets a line per step.
    ///
    /// - Throws: ``BackupError`` naming the entry or the check that failed; the target is then unchanged.
    package func run(report: (String) -> Void) throws(BackupError) -> BackupSummary {
        let target = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw BackupError("\(target) is a file, not a folder")
        }
        guard existing.isEmpty || force else {
            throw BackupError("\(target) is not empty; restore into an empty folder, or pass --force to replace it")
        }
        let parent = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        let staging = parent + "/." + base + ".restore-" + SecureRandom.hex(byteCount: 6)
        do {
            try Posix.makeDirectories(staging)
        } catch {
            throw BackupError("cannot create \(staging): \(error)")
        }
        do {
            let summary = try extract(into: staging, report: report)
            try replace(target, with: staging, existing: !existing.isEmpty || isDirectory.boolValue)
            return summary
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    private func extract(into staging: String, report: (String) -> Void) throws(BackupError) -> BackupSummary {
        let reader = try TarArchiveReader(path: archivePath)
        var written: [String: (size: Int, sha256: String)] = [:]
        var summary = BackupSummary()
        var manifestApps: [String]?
        var endSums: [String: JSONValue]?
        var count = 0
        while let header = try reader.nextHeader() {
            count += 1
            guard count <= BackupArchiveLayout.maximumEntries else {
                throw BackupError("more than \(BackupArchiveLayout.maximumEntries) entries: not a bmob backup")
            }
            guard endSums == nil else { throw BackupError("\(header.name): an entry after \(BackupArchiveLayout.endManifest) is refused") }
            let entry = try BackupArchiveLayout.classify(header.name, kind: header.kind)
            if count == 1, entry != .manifest {
                throw BackupError("\(archivePath) is not a bmob backup (its first entry is not \(BackupArchiveLayout.manifest))")
            }
            switch entry {
            case .directory:
                try reader.readContent(of: header) { _ throws(BackupError) in }
            case .manifest, .endManifest:
                let bytes = try readJSONEntry(header, reader: reader)
                guard let document = try? JSONParser.parse(bytes) else {
                    throw BackupError("\(header.name) is not valid JSON: the archive is damaged")
                }
                if entry == .manifest {
                    guard count == 1 else { throw BackupError("\(header.name) appears twice") }
                    guard document["format"]?.stringValue == BackupArchiveLayout.format else {
                        throw BackupError("\(archivePath) is not a bmob backup")
                    }
                    guard document["version"]?.int64Value == Int64(BackupArchiveLayout.version) else {
                        throw BackupError("\(archivePath) is a backup of version \(document["version"]?.jsonString ?? "?"); this bmob reads version \(BackupArchiveLayout.version)")
                    }
                    manifestApps = document["apps"]?.arrayValue?.compactMap(\.stringValue)
                } else {
                    guard case .object(let sums)? = document["entries"] else {
                        throw BackupError("\(header.name) has no entries: the archive is damaged")
                    }
                    endSums = sums
                }
            case .registry, .secrets, .database, .storedFile:
                guard written[header.name] == nil else { throw BackupError("\(header.name) appears twice in the archive") }
                if entry == .registry || entry == .secrets {
                    guard header.size <= BackupArchiveLayout.maximumJSONBytes else {
                        throw BackupError("\(header.name): \(header.size) bytes is more than the \(BackupArchiveLayout.maximumJSONBytes) allowed")
                    }
                }
                written[header.name] = try extractFile(header, reader: reader, to: staging + "/" + header.name)
                if case .database(let applicationId) = entry { summary.databases.append(applicationId) }
                if entry == .storedFile {
                    summary.fileCount += 1
                    summary.fileBytes += header.size
                }
            }
        }
        guard let endSums else {
            throw BackupError("\(archivePath) has no \(BackupArchiveLayout.endManifest): the backup was not finished or the archive is truncated")
        }
        for (name, sum) in endSums where name != BackupArchiveLayout.manifest {
            guard let got = written[name] else { throw BackupError("\(name) is listed in the archive's manifest but missing") }
            guard sum["size"]?.int64Value == Int64(got.size), sum["sha256"]?.stringValue == got.sha256 else {
                throw BackupError("\(name) does not match its checksum: the archive is damaged")
            }
        }
        for name in written.keys where endSums[name] == nil {
            throw BackupError("\(name) is not listed in the archive's manifest: the archive was altered")
        }
        guard written[BackupArchiveLayout.registry] != nil else { throw BackupError("the archive holds no apps.json") }
        let registryPath = staging + "/" + BackupArchiveLayout.registry
        let ids = try DataFolderBackup.applicationIds(
            Array(FileManager.default.contents(atPath: registryPath) ?? Data()), path: BackupArchiveLayout.registry)
        summary.applicationIds = ids
        if let manifestApps, Set(manifestApps) != Set(ids) {
            throw BackupError("apps.json and \(BackupArchiveLayout.manifest) name different apps: the archive was altered")
        }
        for applicationId in summary.databases {
            guard ids.contains(applicationId) else {
                throw BackupError("\(BackupArchiveLayout.database(applicationId)) belongs to no app of apps.json")
            }
            let path = staging + "/" + BackupArchiveLayout.database(applicationId)
            let problems: [String]
            do {
                problems = try SQLiteOnlineBackup.integrityProblems(path: path)
            } catch {
                throw BackupError(error.description)
            }
            guard problems.isEmpty else {
                throw BackupError("\(applicationId): the database fails its integrity check: \(problems.joined(separator: "; "))")
            }
            report("\(applicationId): database restored, integrity ok")
        }
        if summary.fileCount > 0 { report("files: \(summary.fileCount) (\(summary.fileBytes) bytes)") }
        return summary
    }

    private func readJSONEntry(_ header: TarHeader, reader: TarArchiveReader) throws(BackupError) -> [UInt8] {
        guard header.size <= BackupArchiveLayout.maximumJSONBytes else {
            throw BackupError("\(header.name): \(header.size) bytes is more than the \(BackupArchiveLayout.maximumJSONBytes) allowed")
        }
        var bytes: [UInt8] = []
        try reader.readContent(of: header) { (piece) throws(BackupError) in bytes += piece }
        return bytes
    }

    private func extractFile(
        _ header: TarHeader, reader: TarArchiveReader, to path: String
    ) throws(BackupError) -> (size: Int, sha256: String) {
        let fd: Int32
        do {
            try Posix.makeDirectories((path as NSString).deletingLastPathComponent)
            fd = try Posix.createForWriting(path)
        } catch {
            throw BackupError("cannot create \(path): \(error)")
        }
        defer { Posix.close(fd) }
        // The registry and the secrets hold keys: owner only, as the server writes them.
        if header.name == BackupArchiveLayout.registry || header.name == BackupArchiveLayout.secrets { fchmod(fd, 0o600) }
        var hasher = SHA256Hasher()
        try reader.readContent(of: header) { (piece) throws(BackupError) in
            hasher.update(piece)
            do {
                try piece.withUnsafeBytes { buffer in try Posix.writeAll(fd, buffer) }
            } catch {
                throw BackupError("cannot write \(path): \(error)")
            }
        }
        do {
            try Posix.synchronize(fd)
        } catch {
            throw BackupError("cannot flush \(path): \(error)")
        }
        return (header.size, Hex.encode(hasher.finalize()))
    }

    /// Puts `staging` where `target` is: the old folder is moved aside first and removed only once the new one
    /// is in place.
    private func replace(_ target: String, with staging: String, existing: Bool) throws(BackupError) {
        do {
            guard existing else {
                try Posix.makeDirectories((target as NSString).deletingLastPathComponent)
                try Posix.rename(staging, to: target)
                return
            }
            let aside = (target as NSString).deletingLastPathComponent + "/." + (target as NSString).lastPathComponent
                + ".replaced-" + SecureRandom.hex(byteCount: 6)
            try Posix.rename(target, to: aside)
            do {
                try Posix.rename(staging, to: target)
            } catch {
                try? Posix.rename(aside, to: target)
                throw error
            }
            try? FileManager.default.removeItem(atPath: aside)
        } catch {
            throw BackupError("cannot move the restored folder to \(target): \(error)")
        }
    }
}
