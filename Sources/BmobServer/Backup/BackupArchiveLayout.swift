/// The names inside a backup archive (``DataFolderBackup``, ``DataFolderRestore``), and which names a restore
/// accepts: only these, so an archive cannot place a file anywhere else.
///
/// ```
/// bmob-backup.json          first: {"format":"bmob-backup","version":1,"createdAt":<ms>,"apps":[ids]}
/// apps.json                 the app registry, as it was when the backup began
/// secrets.json              the deployment's shared secrets, when there are any
/// apps/<id>/data.sqlite     each app's database, copied with SQLite's online backup
/// files/<key>               the local file storage's files (not uploads in progress)
/// bmob-backup-end.json      last: {"entries":{"<name>":{"size":n,"sha256":"<hex>"}}} of every entry above
/// ```
package enum BackupArchiveLayout {
    /// The first entry's name.
    package static let manifest = "bmob-backup.json"
    /// The last entry's name: every other entry's size and SHA-256.
    package static let endManifest = "bmob-backup-end.json"
    /// The app registry's name, in the archive as in the data folder.
    package static let registry = "apps.json"
    /// The shared secrets' name, in the archive as in the data folder.
    package static let secrets = "secrets.json"
    /// The manifest's `format`.
    package static let format = "bmob-backup"
    /// The manifest's `version`: the layout this code writes and reads.
    package static let version = 1
    /// The most bytes a JSON entry (manifests, registry, secrets) may hold in an archive being restored.
    package static let maximumJSONBytes = 64 << 20
    /// The most entries a restore reads.
    package static let maximumEntries = 5_000_000

    /// What an accepted entry name stands for.
    package enum Entry: Equatable {
        case manifest, endManifest, registry, secrets
        case database(applicationId: String)
        case storedFile
        case directory
    }

    /// The archive entry name of an app's database.
    package static func database(_ applicationId: String) -> String {
        "apps/\(applicationId)/data.sqlite"
    }

    /// Whether `applicationId` can name a folder: what ``AppRegistry/create`` allows (no `/` or `.`).
    package static func isFolderName(_ applicationId: String) -> Bool {
        !applicationId.isEmpty && applicationId.utf8.count <= 128
            && applicationId.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ".") }
    }

    /// Classifies the entry `name` of kind `kind`.
    ///
    /// - Throws: ``BackupError`` for an absolute path, an empty, `.` or `..` component, a backslash or a control
    ///   character, or a name outside the layout above.
    package static func classify(_ name: String, kind: TarHeader.Kind) throws(BackupError) -> Entry {
        let trimmed = kind == .directory && name.hasSuffix("/") ? String(name.dropLast()) : name
        guard !trimmed.isEmpty, !trimmed.hasPrefix("/") else { throw BackupError("\(name): an absolute or empty entry name is refused") }
        let components = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty, component != ".", component != ".." else {
                throw BackupError("\(name): entry names with empty, '.' or '..' components are refused")
            }
            guard component.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\\") }) else {
                throw BackupError("\(name): entry names with control characters or backslashes are refused")
            }
        }
        if kind == .directory {
            if components == ["apps"] || components == ["files"] { return .directory }
            if components.count == 2, components[0] == "apps", isFolderName(String(components[1])) { return .directory }
            if components.count >= 2, components[0] == "files", !components[1].hasPrefix(".") { return .directory }
            throw BackupError("\(name): a folder outside apps/ and files/ is refused")
        }
        switch trimmed {
        case manifest: return .manifest
        case endManifest: return .endManifest
        case registry: return .registry
        case secrets: return .secrets
        default: break
        }
        if components.count == 3, components[0] == "apps", components[2] == "data.sqlite", isFolderName(String(components[1])) {
            return .database(applicationId: String(components[1]))
        }
        // Uploads in progress (`files/.tmp`, `files/.uploads`) are never backed up, so never restored.
        if components.count >= 2, components[0] == "files", !components[1].hasPrefix(".") {
            return .storedFile
        }
        throw BackupError("\(name) is refused: not an entry of a bmob backup (apps.json, secrets.json, apps/<id>/data.sqlite, files/…)")
    }
}
