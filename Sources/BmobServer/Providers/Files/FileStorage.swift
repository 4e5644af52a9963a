package import BmobHTTP
package import BmobWire

/// Where file bytes live: local disk under the data folder, or an S3-compatible bucket. Keys are ``FileKey``s,
/// shared by every app of the server (each app's `_File` records say which keys are its own).
///
/// A file becomes visible under its key only once it is complete: a reader never sees half of it.
package protocol FileStorage: Sendable {
    /// The name answers give in `cdn` (`local`, `s3`).
    var cdnName: String { get }

    /// Stores `bytes` under `key`, replacing nothing: a key is used once.
    func write(_ bytes: [UInt8], to key: FileKey) async throws

    /// The size in bytes of the file under `key`; `nil` when there is none.
    func size(of key: FileKey) async throws -> Int?

    /// The file under `key`, open for a download (its size known, its bytes streamed as they are sent); `nil`
    /// when there is none.
    func open(_ key: FileKey) async throws -> (any HTTPByteSource)?

    /// Removes the file under `key`; `false` when there was none.
    @discardableResult
    func remove(_ key: FileKey) async throws -> Bool

    /// Where the multipart upload `grant` allows goes, with credentials for its key only: the local provider's
    /// own endpoint under `baseURL` with credentials `issuer` makes; a bucket with temporary credentials from
    /// its security token service.
    func multipartTarget(for grant: UploadGrant, issuer: UploadCredentialIssuer, baseURL: String) async throws
        -> MultipartTarget
}
