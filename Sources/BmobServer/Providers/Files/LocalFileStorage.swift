package import BmobHTTP
package import BmobIO
package import BmobWire
import BmobCrypto

/// Files on the local disk, under `<data folder>/files/<key>`: the default provider of a single-machine server.
///
/// A write goes to a temporary file in `files/.tmp/`, is flushed to the disk, and is renamed into place, so a
/// crash never leaves part of a file under its key. Every call runs on the blocking pool, never on a loop.
package struct LocalFileStorage: FileStorage {
    /// The folder keys are relative to.
    package let root: String
    private let pool: ThreadPool

    package var cdnName: String { "local" }

    /// Files under `root` (created when missing), with disk work on `pool`.
    package init(root: String, pool: ThreadPool) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.pool = pool
    }

    /// The folder for temporary files (writes in progress).
    package var temporaryFolder: String { root + "/.tmp" }

    /// The path of `key`'s file.
    package func path(of key: FileKey) -> String {
        root + "/" + key.rawValue
    }

    package func write(_ bytes: [UInt8], to key: FileKey) async throws {
        let destination = path(of: key)
        let temporary = temporaryFolder + "/" + SecureRandom.hex(byteCount: 16)
        let folder = String(destination[..<destination.lastIndex(of: "/")!])
        let temporaryFolder = temporaryFolder
        try await pool.run { _ in
            try Posix.makeDirectories(temporaryFolder)
            try Posix.makeDirectories(folder)
            try Self.writeWhole(bytes, to: destination, through: temporary)
        }
    }

    /// Writes `bytes` to the new file `temporary`, flushes it to the disk and renames it to `path`: `path` holds
    /// all of them or what it held before. A failure removes the temporary file. Blocking: call it on the pool.
    package static func writeWhole(_ bytes: [UInt8], to path: String, through temporary: String) throws {
        try replace(path, through: temporary) { fd in
            try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> Void in try Posix.writeAll(fd, buffer) }
        }
    }

    /// Creates the new file `temporary`, lets `fill` write it, flushes it to the disk and renames it to `path`:
    /// `path` holds all of it or what it held before. A failure removes the temporary file; its descriptor is closed
    /// once, whatever failed. Blocking: call it on the pool.
    package static func replace(_ path: String, through temporary: String, _ fill: (Int32) throws -> Void) throws {
        let fd = try Posix.createForWriting(temporary)
        var isOpen = true
        do {
            try fill(fd)
            try Posix.synchronize(fd)
            Posix.close(fd)
            isOpen = false
            try Posix.rename(temporary, to: path)
        } catch {
            if isOpen { Posix.close(fd) }
            _ = try? Posix.removeFile(temporary)
            throw error
        }
    }

    package func size(of key: FileKey) async throws -> Int? {
        let path = path(of: key)
        return try await pool.run { _ in try Posix.regularFileSize(atPath: path) }
    }

    package func open(_ key: FileKey) async throws -> (any HTTPByteSource)? {
        do {
            return try await HTTPFile.open(atPath: path(of: key), pool: pool)
        } catch let error as IOError where error.isNotFound {
            return nil
        }
    }

    /// `<baseURL>/s3`, bucket `files`, answered by ``LocalMultipartUploads``.
    package func multipartTarget(for grant: UploadGrant, issuer: UploadCredentialIssuer, baseURL: String) async throws
        -> MultipartTarget
    {
        MultipartTarget(
            endpoint: baseURL + S3MultipartRoutes.pathPrefix, region: FileService.localRegion,
            bucket: FileService.localBucket, credentials: issuer.issue(grant))
    }

    package func remove(_ key: FileKey) async throws -> Bool {
        let path = path(of: key)
        return try await pool.run { _ in try Posix.removeFile(path) }
    }
}
