import BmobCore
import BmobCrypto
import Foundation

/// The resume records on disk: one JSON file per (server, app, file name, content hash) in the SDK's local
/// storage folder, under `uploads/`.
///
/// Writes are atomic (a temporary file renamed over the old one), so a crash leaves the old record or the new
/// one. Two uploads of the same name and content at once share a record; the later write wins, which at worst
/// makes a resumed upload send a part again.
struct ResumeStore: Sendable {
    /// The folder name under ``BmobCore/BmobLocalStorage/root``.
    static let folderName = "uploads"

    /// What identifies a record: the server and app, the file's name and its content's hash.
    let identity: String

    /// The store for one file of one app.
    init(domain: String, appKey: String, filename: String, contentHash: String) {
        identity = SHA256.hex(Array("\(domain)\n\(appKey)\n\(filename)\n\(contentHash)".utf8))
    }

    /// The record's file.
    private func location() throws -> URL {
        try BmobLocalStorage.directory(Self.folderName).appendingPathComponent("\(identity).json")
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
        try? data.write(to: url, options: .atomic)
    }

    /// Removes the record.
    func remove() {
        guard let url = try? location() else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
