import BmobCrypto
import BmobStore
package import BmobWire

/// Files: stores uploads with the storage provider and keeps a `_File` record per file in its app, so that the
/// journal records file creates and deletes, and deletes are authorized against the record.
///
/// Records are written by the server as master: `filename`, `key`, `url`, `cdn`, `size`, `mimeType`, and
/// `owner` (a `_User` pointer) when the uploader had a session. Their ACL lets the owner read them and nobody
/// else (anonymous uploads: nobody but the master key), so a client can list its own files and no one else's.
/// Deleting needs the master key, or the owner's session when the file has an owner; a file uploaded without a
/// session can be deleted by any client of its app, as on Bmob.
package struct FileService: Sendable {
    /// The class of file records.
    package static let className = "_File"

    package let storage: any FileStorage
    package let settings: FileSettings
    /// Issues and checks multipart uploads' credentials.
    package let credentials: UploadCredentialIssuer
    /// Signs download URLs and checks them.
    package let downloads: DownloadSigner
    let clock: ServerClock
    let callers: CallerResolver
    let server: ServerContext
    private let ids: ObjectIdGenerator

    package init(
        storage: any FileStorage, settings: FileSettings, credentials: UploadCredentialIssuer, downloads: DownloadSigner,
        clock: ServerClock, callers: CallerResolver, server: ServerContext, ids: ObjectIdGenerator = .ascending
    ) {
        self.storage = storage
        self.settings = settings
        self.credentials = credentials
        self.downloads = downloads
        self.clock = clock
        self.callers = callers
        self.server = server
        self.ids = ids
    }

    /// Stores a single-request upload (`POST /2/files/<name>`, `/8/files`) and records it.
    ///
    /// - Throws: ``BmobAPIError`` 146 for a bad name, 149 for no bytes, 145 above ``FileSettings/maximumSmallFileBytes``, 150 when
    ///   the storage fails.
    package func upload(filename: String, mimeType: String?, bytes: [UInt8], context: AppContext) async throws
        -> StoredFileAnswer
    {
        let name = try Self.checkedName(filename)
        guard !bytes.isEmpty else { throw BmobAPIError(.emptyFile, "the file is empty") }
        guard bytes.count <= settings.maximumSmallFileBytes else {
            throw BmobAPIError(
                .fileTooLarge, "the file is larger than \(settings.maximumSmallFileBytes) bytes; upload it in parts",
                status: .payloadTooLarge)
        }
        let caller = try await callers.caller(context)
        let key = newKey(fileExtension: name.fileExtension)
        do {
            try await storage.write(bytes, to: key)
        } catch {
            throw BmobAPIError.storageUnavailable(.fileUploadError, "the file could not be stored", cause: error)
        }
        do {
            return try await record(
                key: key, name: name, mimeType: mimeType, size: bytes.count, owner: caller.userId, context: context)
        } catch {
            // Nothing refers to the bytes: they go, so that a failed upload leaves nothing behind.
            _ = try? await storage.remove(key)
            throw error
        }
    }

    /// Records the file stored under `key` in its app (`_File`) and answers its URL.
    package func record(
        key: FileKey, name: FileName, mimeType: String?, size: Int, owner: String?, context: AppContext
    ) async throws -> StoredFileAnswer {
        let answer = StoredFileAnswer(filename: name.value, url: url(of: key), cdn: storage.cdnName)
        var body: [String: JSONValue] = [
            "filename": .string(name.value), "key": .string(key.rawValue), "url": .string(answer.url),
            "cdn": .string(answer.cdn), "size": .int(Int64(size)),
            "mimeType": .string(mimeType ?? FileContentType.forExtension(key.fileExtension)),
        ]
        if let owner {
            body["owner"] = ["__type": "Pointer", "className": "_User", "objectId": .string(owner)]
            body["ACL"] = [owner: ["read": true]]
        } else {
            body["ACL"] = [:]
        }
        let now = clock.nowMilliseconds()
        let ids = ids
        let recordBody = body
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                if !(try transaction.indexes(className: Self.className)).contains(where: { $0.paths == ["key"] }) {
                    try transaction.createIndex(className: Self.className, paths: ["key"], unique: true)
                }
                _ = try ObjectService.insert(
                    className: Self.className, body: recordBody, now: now, ids: ids, transaction: transaction)
            }
        }
        return answer
    }

    /// Deletes the file `reference` names (its key, URL path or URL): its record, then its bytes.
    ///
    /// - Throws: ``BmobAPIError`` 151 when the app has no such file, 153 when the caller may not delete it.
    package func delete(_ reference: String, context: AppContext) async throws {
        guard let key = FileKey(urlOrPath: reference) else {
            throw BmobAPIError(.fileDeleteError, "no such file: \(Self.quoted(reference))")
        }
        let caller = try await callers.caller(context)
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                let query = FindQuery(
                    className: Self.className,
                    condition: .field(path: "key", constraints: [.equalTo(.string(key.rawValue))]), limit: 1)
                let found: [StoredObject]
                do {
                    found = try transaction.find(query)
                } catch let error as StoreError where error.code == .notFound {
                    found = []
                }
                guard let record = found.first else {
                    throw BmobAPIError(.fileDeleteError, "no such file: \(key.rawValue)")
                }
                if caller != .master, case .object(let owner)? = record.fields["owner"],
                    case .string(let ownerId)? = owner["objectId"], ownerId != caller.userId
                {
                    throw BmobAPIError(.fileNotOwner, "only the file's owner or the master key may delete it")
                }
                _ = try transaction.delete(className: Self.className, objectId: record.objectId)
            }
        }
        // After the commit: a crash in between leaves bytes without a record, never a record without bytes.
        _ = try? await storage.remove(key)
    }

    /// Deletes each file `references` names; the ones that fail are named in one 154 error.
    ///
    /// - Throws: 107 when `references` is empty (no body, `{}`, or only empty lists: a client mistake, not a
    ///   delete of nothing), 154 for more than ``maximumBatch`` or for the files that could not be deleted.
    package func deleteBatch(_ references: [String], context: AppContext) async throws {
        guard !references.isEmpty else {
            throw BmobAPIError(.invalidJSON, "name the files to delete: {\"<cdn>\": [key or URL, …]}")
        }
        guard references.count <= Self.maximumBatch else {
            throw BmobAPIError(.fileBatchDeleteError, "at most \(Self.maximumBatch) files per batch delete")
        }
        var failed: [String] = []
        for reference in references {
            do {
                try await delete(reference, context: context)
            } catch let error as BmobAPIError where error.code == .fileDeleteError || error.code == .fileNotOwner {
                failed.append(reference)
            }
        }
        guard failed.isEmpty else {
            throw BmobAPIError(
                .fileBatchDeleteError, "these files could not be deleted: \(failed.map(Self.quoted).joined(separator: ", "))")
        }
    }

    /// The most files one batch delete names.
    package static let maximumBatch = 100

    /// Signed URLs of the files `references` name (keys, URL paths or URLs), valid for `expiresIn` seconds
    /// (``FileSettings/signedURLSeconds`` when `nil`): `{"urls": [...], "expiresAt": <Unix seconds>}`, in the
    /// order of `references`.
    ///
    /// Signing a file is reading it, so it is authorized as a read of the file's `_File` record by the caller:
    /// the owner's session or the master key (a file uploaded without a session: the master key only). A file
    /// the caller may not read answers as one that does not exist, so a caller learns nothing of others' files.
    ///
    /// - Throws: ``BmobAPIError`` 107 for no files, more than ``maximumBatch`` or a lifetime out of range, 101 for
    ///   a file that does not exist in the app or that the caller may not read.
    package func signedURLs(_ references: [String], expiresIn: Int?, context: AppContext) async throws -> JSONValue {
        guard !references.isEmpty, references.count <= Self.maximumBatch else {
            throw BmobAPIError(.invalidJSON, "name 1 to \(Self.maximumBatch) files in \"urls\"")
        }
        let seconds = expiresIn ?? settings.signedURLSeconds
        guard (1...settings.maximumSignedURLSeconds).contains(seconds) else {
            throw BmobAPIError(.invalidJSON, "\"expiresIn\" must be 1 to \(settings.maximumSignedURLSeconds) seconds")
        }
        var keys: [FileKey] = []
        for reference in references {
            guard let key = FileKey(urlOrPath: reference) else {
                throw BmobAPIError(.objectNotFound, "no such file: \(Self.quoted(reference))")
            }
            keys.append(key)
        }
        let wanted = Set(keys.map(\.rawValue))
        var query = FindQuery(
            className: Self.className,
            condition: .field(path: "key", constraints: [.containedIn(wanted.sorted().map { .string($0) })]),
            limit: wanted.count)
        query.readers = try await callers.caller(context).scope.readers
        let recordQuery = query
        let readable = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction -> Set<String> in
                do {
                    return Set(try transaction.find(recordQuery).compactMap { $0.fields["key"]?.stringValue })
                } catch let error as StoreError where error.code == .notFound {
                    return []
                }
            }
        }
        if let missing = keys.first(where: { !readable.contains($0.rawValue) }) {
            throw BmobAPIError(.objectNotFound, "no such file: \(missing.rawValue)")
        }
        let expiresAt = clock.nowMilliseconds() / 1000 + Int64(seconds)
        let urls = keys.map { JSONValue.string(url(of: $0) + "?" + downloads.query(for: $0, expiresAt: expiresAt)) }
        return ["urls": .array(urls), "expiresAt": .int(expiresAt)]
    }

    /// A fresh key for a file uploaded now.
    package func newKey(fileExtension: String) -> FileKey {
        let date = BmobDateFormat.civilDate(millisecondsSince1970: clock.nowMilliseconds())
        return FileKey(
            year: date.year, month: date.month, day: date.day, name: SecureRandom.hex(byteCount: 16),
            fileExtension: fileExtension)!
    }

    /// The URL of `key`'s file: the file base URL (the server's public URL unless set) and the key.
    package func url(of key: FileKey) -> String {
        (settings.baseURL ?? server.publicURL) + "/" + key.rawValue
    }

    /// `filename` checked (``FileName``).
    ///
    /// - Throws: ``BmobAPIError`` 146 saying what is wrong.
    package static func checkedName(_ filename: String) throws(BmobAPIError) -> FileName {
        do {
            return try FileName(filename)
        } catch {
            throw BmobAPIError(.invalidFileName, message(for: error))
        }
    }

    /// What a refused name is told.
    package static func message(for problem: FileName.Problem) -> String {
        switch problem {
        case .empty: "the file name is empty"
        case .tooLong: "the file name is longer than \(FileName.maximumBytes) bytes"
        case .forbiddenCharacter: "the file name holds / or \\ or a control character; names that are not ASCII must be base64"
        case .missingSuffix: "the file name needs a suffix of 1 to 16 letters or digits, such as .jpg"
        }
    }

    /// `text`, quoted and cut short for a message.
    private static func quoted(_ text: String) -> String {
        "'" + String(text.prefix(120)) + "'"
    }
}
