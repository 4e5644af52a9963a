import BmobCore
import BmobCrypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The resume records on disk: one JSON file per (server, app, file name, content hash) in the SDK's local
/// storage folder, under `uploads/`.
///
/// Writes are atomic (a temporary file in the same folder, renamed over the old one), so a crash leaves the old
/// record or the new one. A process killed between the two leaves its temporary behind: temporaries older than
/// ``staleTemporarySeconds`` are removed the first time a process touches the folder. Two uploads of the same name
/// and content at once share a record; the later write wins, which at worst makes a resumed upload send a part
/// again.
struct ResumeStore: Sendable {
    /// The folder name under ``BmobCore/BmobLocalStorage/root``.
    static let folderName = "uploads"
    /// What a temporary's name holds after the record's name.
    static let temporaryMarker = ".tmp-"
    /// How old a temporary must be to be taken for a dead process's: a live write keeps one for milliseconds.
    static let staleTemporarySeconds: TimeInterval = 60

    /// The folders this process swept already.
    private static let swept = SweptFolders()

    /// What identifies a record: the server and app, the file's name and its content's hash.
    let identity: String

    /// The store for one file of one app.
    init(domain: String, appKey: String, filename: String, contentHash: String) {
        identity = SHA256.hex(Array("\(domain)\n\(appKey)\n\(filename)\n\(contentHash)".utf8))
    }

    /// The record's file.
    private func location() throws -> URL {
        let folder = try BmobLocalStorage.directory(Self.folderName)
        if Self.swept.insert(folder.path) {
            Self.removeStaleTemporaries(in: folder, olderThan: Self.staleTemporarySeconds)
        }
        return folder.appendingPathComponent("\(identity).json")
    }

    /// The record, or `nil` when there is none or it cannot be read (an unreadable record is removed).
    func load() -> ResumeRecord? {
        guard let url = try? location(), let data = try? Data(contentsOf: url) else { return nil }
        guard let record = try? JSONDecoder().decode(ResumeRecord.self, from: data) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return record
    }

    /// Writes the record; a failure to write only costs resumability, so it is not reported.
    func save(_ record: ResumeRecord) {
        guard let url = try? location(), let data = try? JSONEncoder().encode(record) else { return }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(url.lastPathComponent + Self.temporaryMarker + UUID().uuidString)
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// Removes the record.
    func remove() {
        guard let url = try? location() else { return }
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes the temporaries in `folder` last written more than `age` seconds ago.
    static func removeStaleTemporaries(in folder: URL, olderThan age: TimeInterval) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-age)
        for name in names where name.contains(temporaryMarker) {
            let path = folder.appendingPathComponent(name).path
            guard let written = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                written < cutoff
            else { continue }
            try? manager.removeItem(atPath: path)
        }
    }
}
