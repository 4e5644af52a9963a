package import BmobHTTP
package import BmobIO
package import BmobWire
import BmobCrypto
import Foundation
import Synchronization

/// Multipart uploads of the local provider: the S3 operations `bmob serve` answers itself (initiate, upload a
/// part, list parts, complete, abort), on disk under `<files>/.uploads/<upload id>/`.
///
/// An upload's folder holds `key` (the key it completes into) and its parts, `<number>-<etag>`, each written to
/// a temporary file while its SHA-256 is checked, then renamed into place: a part is there whole or not at all,
/// and a restart loses nothing acknowledged. Completing concatenates the parts into a temporary file, flushes it
/// and renames it to the key. Uploads untouched for ``expirySeconds`` are removed (checked at most every ten
/// minutes, when an upload starts).
package final class LocalMultipartUploads: Sendable {
    private let storage: LocalFileStorage
    private let pool: ThreadPool
    /// How long an unfinished upload is kept after its last change.
    package let expirySeconds: Int
    /// The most uploads in progress for one key (each initiate makes one).
    package static let maximumUploadsPerKey = 8
    private let state = Mutex(State())

    private struct State {
        var lastSweep: Int64 = 0
        var partsReceived = 0
    }

    /// Uploads beside `storage`'s files.
    package init(storage: LocalFileStorage, pool: ThreadPool, expirySeconds: Int) {
        self.storage = storage
        self.pool = pool
        self.expirySeconds = expirySeconds
    }

    /// How many parts were stored since the server started (a resumed upload sends only what is missing).
    package var partsReceived: Int {
        state.withLock { $0.partsReceived }
    }

    private var folder: String { storage.root + "/.uploads" }

    private func uploadFolder(_ uploadId: String) -> String { folder + "/" + uploadId }

    /// Starts an upload into `key`; returns its id.
    ///
    /// - Throws: ``MultipartUploadError`` `SlowDown` when the key has too many uploads in progress.
    package func initiate(key: FileKey, now: Int64) async throws -> String {
        try await sweepIfDue(now: now)
        let uploadId = SecureRandom.hex(byteCount: 16)
        let folder = folder
        let target = uploadFolder(uploadId)
        try await pool.run { _ in
            try Posix.makeDirectories(folder)
            let open = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            var forKey = 0
            for id in open where Self.isUploadId(id) {
                if (try? String(contentsOfFile: folder + "/" + id + "/key", encoding: .utf8)) == key.rawValue { forKey += 1 }
            }
            guard forKey < Self.maximumUploadsPerKey else {
                throw MultipartUploadError("SlowDown", status: 503, "too many uploads in progress for this key")
            }
            try Posix.makeDirectories(target)
            try LocalFileStorage.writeWhole(
                Array(key.rawValue.utf8), to: target + "/key", through: target + "/." + SecureRandom.hex(byteCount: 8))
        }
        return uploadId
    }

    /// Stores part `number` of `uploadId` from `body`, checking its SHA-256 against `sha256` (the signed
    /// `x-amz-content-sha256`) as it streams to disk; replaces an earlier part with that number.
    ///
    /// - Throws: ``MultipartUploadError``: `NoSuchUpload`, `XAmzContentSHA256Mismatch`, `EntityTooLarge`.
    package func writePart(
        uploadId: String, key: FileKey, number: Int, body: HTTPRequestBodyStream, sha256: [UInt8], maximumBytes: Int
    ) async throws -> MultipartPart {
        let target = try await checkedFolder(uploadId, key: key)
        let temporary = target + "/.part-" + SecureRandom.hex(byteCount: 8)
        let fd = try await pool.run { _ in try Posix.createForWriting(temporary) }
        var hasher = SHA256Hasher()
        var size = 0
        var pending: [UInt8] = []
        pending.reserveCapacity(Self.writeBatch)
        do {
            for try await chunk in body {
                size += chunk.count
                guard size <= maximumBytes else {
                    throw MultipartUploadError("EntityTooLarge", status: 400, "a part holds at most \(maximumBytes) bytes")
                }
                hasher.update(chunk)
                pending += chunk
                if pending.count >= Self.writeBatch {
                    let batch = pending
                    pending.removeAll(keepingCapacity: true)
                    try await write(batch, to: fd)
                }
            }
            if !pending.isEmpty { try await write(pending, to: fd) }
            let digest = hasher.finalize()
            guard ConstantTime.equals(digest, sha256) else {
                throw MultipartUploadError(
                    "XAmzContentSHA256Mismatch", status: 400, "the part's SHA-256 is not x-amz-content-sha256")
            }
            let etag = Hex.encode(digest.prefix(16))
            let part = MultipartPart(number: number, etag: etag, size: size)
            try await pool.run { _ in
                try Posix.synchronize(fd)
                Posix.close(fd)
                let name = Self.partName(number)
                for old in (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? [] where old.hasPrefix(name + "-") {
                    try Posix.removeFile(target + "/" + old)
                }
                try Posix.rename(temporary, to: target + "/" + name + "-" + etag)
            }
            state.withLock { $0.partsReceived += 1 }
            return part
        } catch {
            let pool = pool
            _ = try? await pool.run { _ in
                Posix.close(fd)
                _ = try? Posix.removeFile(temporary)
            }
            throw error
        }
    }

    /// The parts of `uploadId` stored so far, by number.
    package func parts(uploadId: String, key: FileKey) async throws -> [MultipartPart] {
        let target = try await checkedFolder(uploadId, key: key)
        return try await pool.run { _ in try Self.listParts(target) }
    }

    /// Completes `uploadId` with `chosen` parts (numbers ascending, ETags as listed): concatenates them into the
    /// key's file. Every part but the last must hold at least `minimumPartBytes`.
    ///
    /// - Returns: the file's size and its multipart ETag.
    /// - Throws: ``MultipartUploadError``: `NoSuchUpload`, `InvalidPart`, `InvalidPartOrder`, `EntityTooSmall`,
    ///   `EntityTooLarge`.
    package func complete(
        uploadId: String, key: FileKey, chosen: [(number: Int, etag: String)], minimumPartBytes: Int, maximumBytes: Int
    ) async throws -> (size: Int, etag: String) {
        let target = try await checkedFolder(uploadId, key: key)
        let destination = storage.path(of: key)
        let temporaryFolder = storage.temporaryFolder
        return try await pool.run { _ in
            let stored = Dictionary(uniqueKeysWithValues: try Self.listParts(target).map { ($0.number, $0) })
            guard !chosen.isEmpty else {
                throw MultipartUploadError("MalformedXML", status: 400, "the upload names no parts")
            }
            var previous = 0
            var total = 0
            var files: [String] = []
            var etags: [UInt8] = []
            for (index, choice) in chosen.enumerated() {
                guard choice.number > previous else {
                    throw MultipartUploadError("InvalidPartOrder", status: 400, "parts must be listed in ascending order")
                }
                previous = choice.number
                let etag = choice.etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                guard let part = stored[choice.number], part.etag == etag else {
                    throw MultipartUploadError("InvalidPart", status: 400, "part \(choice.number) was not uploaded with that ETag")
                }
                guard part.size >= minimumPartBytes || index == chosen.count - 1 else {
                    throw MultipartUploadError(
                        "EntityTooSmall", status: 400, "every part but the last must hold at least \(minimumPartBytes) bytes")
                }
                total += part.size
                guard total <= maximumBytes else {
                    throw MultipartUploadError("EntityTooLarge", status: 400, "the file is larger than \(maximumBytes) bytes")
                }
                files.append(target + "/" + Self.partName(part.number) + "-" + part.etag)
                etags += Array(part.etag.utf8)
            }
            try Posix.makeDirectories(temporaryFolder)
            try Posix.makeDirectories(String(destination[..<destination.lastIndex(of: "/")!]))
            let temporary = temporaryFolder + "/" + SecureRandom.hex(byteCount: 16)
            try LocalFileStorage.replace(destination, through: temporary) { output in
                // Inside the kernel: the parts' bytes never pass through this process.
                for file in files {
                    let input = try Posix.openForReading(file)
                    defer { Posix.close(input) }
                    _ = try Posix.copyRest(from: input, to: output)
                }
            }
            try? FileManager.default.removeItem(atPath: target)
            return (total, Hex.encode(SHA256.hash(etags).prefix(16)) + "-\(files.count)")
        }
    }

    /// Removes `uploadId` and its parts.
    package func abort(uploadId: String, key: FileKey) async throws {
        let target = try await checkedFolder(uploadId, key: key)
        try await pool.run { _ in try FileManager.default.removeItem(atPath: target) }
    }

    /// The folder of `uploadId`, once it is known to be an upload into `key`.
    private func checkedFolder(_ uploadId: String, key: FileKey) async throws -> String {
        guard Self.isUploadId(uploadId) else { throw MultipartUploadError.noSuchUpload }
        let target = uploadFolder(uploadId)
        let recorded = try await pool.run { _ in try? String(contentsOfFile: target + "/key", encoding: .utf8) }
        guard recorded == key.rawValue else { throw MultipartUploadError.noSuchUpload }
        return target
    }

    /// Removes uploads older than ``expirySeconds``, at most every ten minutes.
    private func sweepIfDue(now: Int64) async throws {
        let due = state.withLock { state in
            guard now - state.lastSweep >= 600 else { return false }
            state.lastSweep = now
            return true
        }
        guard due else { return }
        let folder = folder
        let cutoff = Date(timeIntervalSince1970: TimeInterval(now - Int64(expirySeconds)))
        try await pool.run { _ in
            for id in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where Self.isUploadId(id) {
                let path = folder + "/" + id
                let changed = Self.lastChange(path)
                if changed < cutoff { try? FileManager.default.removeItem(atPath: path) }
            }
        }
    }

    /// The latest modification time of a folder and the files in it.
    private static func lastChange(_ folder: String) -> Date {
        var latest = (try? FileManager.default.attributesOfItem(atPath: folder)[.modificationDate] as? Date) ?? .distantPast
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            if let date = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.modificationDate] as? Date,
                date > latest
            {
                latest = date
            }
        }
        return latest
    }

    private static func listParts(_ folder: String) throws -> [MultipartPart] {
        var parts: [MultipartPart] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let pieces = name.split(separator: "-")
            guard pieces.count == 2, pieces[0].count == 5, let number = Int(pieces[0]), pieces[1].count == 32,
                let size = try Posix.regularFileSize(atPath: folder + "/" + name)
            else { continue }
            parts.append(MultipartPart(number: number, etag: String(pieces[1]), size: size))
        }
        return parts.sorted { $0.number < $1.number }
    }

    private func write(_ bytes: [UInt8], to fd: Int32) async throws {
        try await pool.run { _ in
            try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> Void in try Posix.writeAll(fd, buffer) }
        }
    }

    private static func partName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    /// Whether `text` has an upload id's shape (32 lowercase hex digits), so it can name nothing else.
    static func isUploadId(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && Hex.isLowercase(text.utf8)
    }

    /// Bytes gathered before one write to disk.
    private static let writeBatch = 1 << 20
}
