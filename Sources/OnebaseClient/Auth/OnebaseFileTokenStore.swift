public import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A token store in one file that only its owner can read or write (mode `0600`): the default on platforms without
/// the Keychain.
///
/// The token is written to a temporary file created with mode `0600` and renamed over the old one, so the file is
/// never readable by others and never half written.
public struct OnebaseFileTokenStore: OnebaseTokenStore {
    /// The token's file.
    public let fileURL: URL

    /// A store in `fileURL`; its folder is made when needed (mode `0700`).
    ///
    /// - Parameter fileURL: the file.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The file's contents, if it exists.
    public func loadToken() -> String? {
        guard let data = try? Data(contentsOf: fileURL), let token = String(data: data, encoding: .utf8),
            !token.isEmpty
        else { return nil }
        return token
    }

    /// Writes `token` to the file (mode `0600`, atomically).
    ///
    /// - Throws: ``OnebaseError`` when the folder or the file cannot be written.
    public func saveToken(_ token: String) throws {
        let folder = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw OnebaseError(message: "cannot write the token file (errno \(errno))") }
        let bytes = Array(token.utf8)
        let written = bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary.path, fileURL.path) == 0 else {
            unlink(temporary.path)
            throw OnebaseError(message: "cannot write the token file")
        }
    }

    /// Deletes the file.
    public func deleteToken() {
        unlink(fileURL.path)
    }
}
