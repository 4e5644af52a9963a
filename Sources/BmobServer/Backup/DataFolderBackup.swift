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

/// `bmob backup`: one archive of a data folder (``BackupArchiveLayout``) while a server may be serving from it.
///
/// The registry is read first (it is replaced by rename, so it is read whole), each app's database is copied with
/// SQLite's online backup (one snapshot per database), then the stored files are walked: a `_File` record in a
/// copied database was written after its file, so its file is on disk when the walk comes (unless it was deleted
/// meanwhile). Each database is consistent as of one moment between the backup's start and its end; the apps are
/// not one snapshot together, as they are not one transaction together when serving either.
package struct DataFolderBackup: Sendable {
    /// The data folder backed up.
    package let dataDirectory: String

    /// A backup of the data folder `dataDirectory`.
    package init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    /// Writes the archive to `archivePath` (which must not exist): first to `<archivePath>.partial`, renamed into
    /// place once complete and flushed, so an interrupted backup never leaves an archive that looks whole.
    /// `report` gets a line per step.
    ///
    /// - Throws: ``BackupError`` when the data folder has no registry, a database cannot be copied, or the archive
    ///   cannot be written; nothing is left at `archivePath` then.
    package func write(to archivePath: String, report: (String) -> Void) throws(BackupError) -> BackupSummary {
        let registry = AppRegistry(dataDirectory: dataDirectory)
        guard let registryBytes = FileManager.default.contents(atPath: registry.registryPath).map(Array.init) else {
            throw BackupError("\(registry.registryPath) does not exist: --data must be the server's data folder")
        }
        let applicationIds = try Self.applicationIds(registryBytes, path: registry.registryPath)
        guard !FileManager.default.fileExists(atPath: archivePath) else {
            throw BackupError("\(archivePath) already exists; choose another name or remove it")
        }
        let partial = archivePath + ".partial"
        let scratch = archivePath + ".parts-" + SecureRandom.hex(byteCount: 6)
        _ = try? Posix.removeFile(partial)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try Posix.makeDirectories(scratch)
            let summary = try writeArchive(
                partial, scratch: scratch, registryBytes: registryBytes, applicationIds: applicationIds, report: report)
            try Posix.rename(partial, to: archivePath)
            return summary
        } catch let error as BackupError {
            _ = try? Posix.removeFile(partial)
            throw error
        } catch {
            _ = try? Posix.removeFile(partial)
            throw BackupError("cannot write \(archivePath): \(error)")
        }
    }

    private func writeArchive(
        _ path: String, scratch: String, registryBytes: [UInt8], applicationIds: [String], report: (String) -> Void
    ) throws -> BackupSummary {
        let now = Int(Date().timeIntervalSince1970)
        let archive = try TarArchiveWriter(creating: path)
        var summary = BackupSummary(applicationIds: applicationIds)
        let manifest: JSONValue = [
            "format": .string(BackupArchiveLayout.format), "version": .int(Int64(BackupArchiveLayout.version)),
            "createdAt": .int(Int64(now) * 1000), "apps": .array(applicationIds.map { .string($0) }),
        ]
        try archive.add(name: BackupArchiveLayout.manifest, bytes: manifest.jsonBytes, modificationTime: now)
        try archive.add(name: BackupArchiveLayout.registry, bytes: registryBytes, modificationTime: now)
        for applicationId in applicationIds {
            let source = AppRegistry(dataDirectory: dataDirectory).appDirectory(applicationId) + "/data.sqlite"
            guard FileManager.default.fileExists(atPath: source) else {
                report("\(applicationId): no database yet")
                continue
            }
            let copy = scratch + "/" + applicationId + ".sqlite"
            do {
                try SQLiteOnlineBackup.copy(from: source, to: copy)
            } catch {
                throw BackupError(error.description)
            }
            try archive.add(name: BackupArchiveLayout.database(applicationId), copying: copy, modificationTime: now)
            let size = archive.entries.last?.size ?? 0
            try? FileManager.default.removeItem(atPath: copy)
            summary.databases.append(applicationId)
            report("\(applicationId): database copied (\(size) bytes)")
        }
        let secrets = dataDirectory + "/" + BackupArchiveLayout.secrets
        if let bytes = FileManager.default.contents(atPath: secrets) {
            try archive.add(name: BackupArchiveLayout.secrets, bytes: Array(bytes), modificationTime: now)
        }
        for relative in storedFiles() {
            let source = dataDirectory + "/files/" + relative
            do {
                try archive.add(name: "files/" + relative, copying: source, modificationTime: now)
            } catch {
                // Deleted after the walk listed it: a file the copied databases may no longer name either.
                if !FileManager.default.fileExists(atPath: source) { continue }
                throw error
            }
            summary.fileCount += 1
            summary.fileBytes += archive.entries.last?.size ?? 0
        }
        if summary.fileCount > 0 { report("files: \(summary.fileCount) (\(summary.fileBytes) bytes)") }
        var sums: [String: JSONValue] = [:]
        for entry in archive.entries {
            sums[entry.name] = ["size": .int(Int64(entry.size)), "sha256": .string(entry.sha256)]
        }
        try archive.add(name: BackupArchiveLayout.endManifest, bytes: JSONValue.object(["entries": .object(sums)]).jsonBytes, modificationTime: now)
        try archive.finish()
        summary.archiveBytes = archive.bytesWritten
        return summary
    }

    /// The stored files under `files/`, relative to it and sorted, without uploads in progress (`.tmp`,
    /// `.uploads`) and without anything that is not a regular file (links are not followed).
    private func storedFiles() -> [String] {
        let root = dataDirectory + "/files"
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.split(separator: "/").first?.hasPrefix(".") == true {
                enumerator.skipDescendants()
                continue
            }
            var status = stat()
            guard lstat(root + "/" + relative, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            found.append(relative)
        }
        return found.sorted()
    }

    /// The ids in the registry's bytes.
    static func applicationIds(_ bytes: [UInt8], path: String) throws(BackupError) -> [String] {
        guard let document = try? JSONParser.parse(bytes), let apps = document["apps"]?.arrayValue else {
            throw BackupError("\(path) must hold {\"apps\": [...]}")
        }
        var ids: [String] = []
        for app in apps {
            guard let id = app["applicationId"]?.stringValue, BackupArchiveLayout.isFolderName(id) else {
                throw BackupError("\(path) holds an app without a valid applicationId")
            }
            ids.append(id)
        }
        return ids
    }
}
